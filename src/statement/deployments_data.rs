//! Published deployments of differential privacy, each with its unit of privacy, what was reported (as
//! published), the form a conversion reads, what that conversion assumes, and dated primary sources
//! (`docs/deployments.md` is the same registry as a table, with a paragraph per entry).
use super::deployments::{Deployment, Published, Source};

/// Every registered deployment, in the order the page lists them.
pub const DEPLOYMENTS: &[Deployment] = &[
    Deployment {
        id: "census-2020-redistricting",
        label: "Census 2020, persons",
        unit_short: "a person",
        name: "2020 Census Redistricting Data (P.L. 94-171), persons",
        organisation: "U.S. Census Bureau",
        year: 2021,
        unit: "One person's record in the 2020 Census Edited File, under bounded neighbours (one record \
               changed, not added or removed), across every noisy measurement of the persons file (the \
               US and the Puerto Rico runs). The invariants (each state's total population; block-level \
               counts of housing units and of group-quarters facilities by type) are published exactly \
               and are outside the accounting.",
        reported: "Certificate of Disclosure Avoidance, US Persons (the PR Persons certificate states the \
                   same): privacy framework zero-concentrated differential privacy, mapped to (ε, δ)-DP; \
                   total zCDP-implied ε = 17849145/1041158 (17.14) at δ = 1/10000000000 (10⁻¹⁰), \
                   ρ = 293764/114921 (2.56). Production configuration: global_scale = 339/542 \
                   (ρ = 1/global_scale²), approx_dp_delta = 1e-10, \
                   dp_mechanism = discrete_gaussian_mechanism.",
        // 293764/114921 = (542/339)², exactly as certified.
        published: Published::ZCdp {
            rho: 2.556225581051331,
        },
        assumptions: "ρ-zCDP from discrete Gaussian noise: read as G_μ with μ = √(2ρ), which holds for \
                      continuous Gaussian noise and is close for the discrete Gaussian; zCDP alone does \
                      not determine the curve. The certified ε = 17.14 at δ = 10⁻¹⁰ is a zCDP-to-(ε, δ) \
                      conversion of this ρ (it matches Canonne, Kamath & Steinke 2020's bound to the \
                      certificate's digits), not a separate guarantee. The persons and the housing-unit \
                      files are certified separately, each for its own record type \
                      (census-2020-redistricting-units); the invariants are not covered.",
        sources: &[
            Source {
                title: "Certificate of Disclosure Avoidance: P.L. 94-171 Redistricting Data US Persons \
                        (DAS-PL94171-PRODUCTION-RUN1A-202106241420), in the DAS 2020 Redistricting \
                        Production Code release",
                url: "https://github.com/uscensusbureau/DAS_2020_Redistricting_Production_Code/blob/\
                      289ee463936a6f0efcf2e378abe410ec01d0e140/docs/certificates/\
                      DAS-PL94171-PRODUCTION-RUN1A-202106241420-US-Persons.certificate.pdf",
                date: "2021-06-30",
                locator: "Section 4, 'Formal privacy framework parameters' (p. 3 of 88): total \
                          zCDP-implied ε, δ and ρ; the run's configuration, printed further on, has \
                          global_scale = 339/542",
            },
            Source {
                title: "DAS 2020 Redistricting Production Code: source/configs/production/pl94/\
                        person_default.ini and source/configs/production/prod_default.ini",
                url: "https://github.com/uscensusbureau/DAS_2020_Redistricting_Production_Code/tree/\
                      289ee463936a6f0efcf2e378abe410ec01d0e140/source/configs/production",
                date: "2021-10-27",
                locator: "[budget] global_scale = 339/542 (person_default.ini); approx_dp_delta = 1e-10, \
                          privacy_framework = zcdp, dp_mechanism = discrete_gaussian_mechanism \
                          (prod_default.ini); [constraints] theInvariants (person_default.ini)",
            },
            Source {
                title: "Abowd et al., The 2020 Census Disclosure Avoidance System TopDown Algorithm, \
                        Harvard Data Science Review, Special Issue 2",
                url: "https://doi.org/10.1162/99608f92.529e3cb9",
                date: "2022-06-24",
                locator: "The method (noisy measurements under zCDP, invariants, post-processing); the \
                          numbers above are from the certificate, not from this paper",
            },
        ],
    },
    Deployment {
        id: "census-2020-redistricting-units",
        label: "Census 2020, housing units",
        unit_short: "a housing unit",
        name: "2020 Census Redistricting Data (P.L. 94-171), housing units",
        organisation: "U.S. Census Bureau",
        year: 2021,
        unit: "One housing-unit record (its occupancy status, table H1) in the 2020 Census Edited File, \
               under bounded neighbours, across every noisy measurement of the units file (the US and \
               the Puerto Rico runs).",
        reported: "Certificate of Disclosure Avoidance, US Units (the PR Units certificate states the \
                   same): zero-concentrated differential privacy, mapped to (ε, δ)-DP; total \
                   zCDP-implied ε = 1455307/588081 (2.47) at δ = 1/10000000000 (10⁻¹⁰), \
                   ρ = 11417641/152349649 (0.07). The run's configuration: global_scale = 12343/3379, \
                   approx_dp_delta = 1e-10, dp_mechanism = discrete_gaussian_mechanism.",
        // 11417641/152349649 = (3379/12343)², exactly as certified.
        published: Published::ZCdp {
            rho: 0.07494366462242391,
        },
        assumptions: "ρ-zCDP from discrete Gaussian noise: read as G_μ with μ = √(2ρ), exact for \
                      continuous Gaussian noise and close for the discrete Gaussian; zCDP alone does not \
                      determine the curve. The certified ε = 2.47 at δ = 10⁻¹⁰ is a conversion of this ρ. \
                      The unit is a housing unit, not a person: this budget is separate from the persons \
                      file's (census-2020-redistricting).",
        sources: &[Source {
            title: "Certificate of Disclosure Avoidance: P.L. 94-171 Redistricting Data US Units \
                    (DAS-PL94171-PRODUCTION-RUN1A-202106241420), in the DAS 2020 Redistricting \
                    Production Code release",
            url: "https://github.com/uscensusbureau/DAS_2020_Redistricting_Production_Code/blob/\
                  289ee463936a6f0efcf2e378abe410ec01d0e140/docs/certificates/\
                  DAS-PL94171-PRODUCTION-RUN1A-202106241420-US-Units.certificate.pdf",
            date: "2021-06-30",
            locator: "Section 4, 'Formal privacy framework parameters' (p. 3 of 86); the printed \
                      configuration (p. 10) has global_scale = 12343/3379 and \
                      dp_mechanism = discrete_gaussian_mechanism",
        }],
    },
    Deployment {
        id: "apple-emoji-2017",
        label: "Apple emoji",
        unit_short: "a device-day",
        name: "Apple on-device telemetry: emoji usage (local DP, Count Mean Sketch)",
        organisation: "Apple",
        year: 2017,
        unit: "One device's emoji report on one day: local DP, applied on the device to each donation, \
               and one donation a day is submitted for emoji. Only users who opted in contribute.",
        reported: "Differential Privacy Overview: a per-donation privacy budget; 'For emoji, Apple uses a \
                   privacy budget with epsilon of 4, and submits one donation per day.' Learning with \
                   Privacy at Scale: the emoji use case runs the Count Mean Sketch with m = 1024, \
                   k = 65,536 and ε = 4, a per-event privacy parameter.",
        published: Published::PureDp { eps: 4.0 },
        assumptions: "ε per day: one day of one device. Days compose (at most 4d over d days by basic \
                      composition); Apple states no bound across days, only that collected data are kept \
                      at most three months. Reading ε = 4 as f_{4,0} is an outer bound: the sketch flips \
                      each coordinate of a one-hot vector with probability 1/(1 + e^{ε/2}), so two inputs \
                      differ in at most two coordinates and one report's own curve (two ε/2 randomized \
                      responses composed) lies above f_{4,0}. Other use cases have other budgets \
                      (QuickType ε = 8, Health types ε = 2 per donation) and are not this entry.",
        sources: &[
            Source {
                title: "Apple, Differential Privacy Overview",
                url: "https://www.apple.com/privacy/docs/Differential_Privacy_Overview.pdf",
                date: "2017",
                locator: "The privacy-budget paragraph: per-donation budget; emoji ε = 4, one donation \
                          per day; QuickType ε = 8; Health types ε = 2; data kept at most three months \
                          (the PDF is undated)",
            },
            Source {
                title: "Apple Differential Privacy Team, Learning with Privacy at Scale, Apple Machine \
                        Learning Journal, vol. 1, issue 8",
                url: "https://machinelearning.apple.com/research/learning-with-privacy-at-scale",
                date: "2017-12-06",
                locator: "The Count Mean Sketch (flip probability 1/(1 + e^{ε/2})) and the emoji use \
                          case: m = 1024, k = 65,536, ε = 4",
            },
        ],
    },
    Deployment {
        id: "gboard-es-nwp-2022",
        label: "Gboard (es)",
        unit_short: "a device (whole run)",
        name: "Gboard next-word prediction, Spanish (federated DP-FTRL)",
        organisation: "Google",
        year: 2022,
        unit: "All the data on one device, for the whole training run (user-level: 'the DP guarantee \
               protects all of the data on each device, not just individual training examples').",
        reported: "Google AI Blog: a recurrent network for next-word prediction for Spanish-language \
                   Gboard users, trained with DP-FTRL, 'the first production neural network trained \
                   directly on user data announced with a formal DP guarantee (technically ρ=0.81 \
                   zero-Concentrated-Differential-Privacy, zCDP)'. Xu, Zhang et al. (ACL 2023 Industry \
                   Track) report more than twenty Gboard LMs with ρ-zCDP guarantees, ρ ∈ (0.2, 2).",
        published: Published::ZCdp { rho: 0.81 },
        assumptions: "DP-FTRL adds Gaussian noise to tree-aggregated sums of clipped device updates and \
                      uses no sampling amplification, so the release is a composition of Gaussian \
                      mechanisms and μ = √(2ρ) reads it exactly, provided the participation pattern the \
                      accountant assumed (how often, and how far apart, one device may take part) held in \
                      production; the blog states ρ, not that pattern. One device is the unit: a person \
                      with several devices is covered only by group privacy. The per-model ρ of the 2023 \
                      paper's tables are not transcribed here.",
        sources: &[
            Source {
                title: "McMahan & Thakurta, Federated Learning with Formal Differential Privacy \
                        Guarantees, Google AI Blog",
                url: "https://ai.googleblog.com/2022/02/federated-learning-with-formal.html",
                date: "2022-02-28",
                locator: "Introduction: ρ = 0.81 zCDP, DP-FTRL, Spanish-language Gboard next-word \
                          prediction; the guarantee 'protects all of the data on each device'",
            },
            Source {
                title: "Xu, Zhang, Andrew, Choquette-Choo, Kairouz, McMahan, Rosenstock & Zhang, \
                        Federated Learning of Gboard Language Models with Differential Privacy, \
                        ACL 2023 Industry Track, pp. 629-639 (arXiv:2305.18465)",
                url: "https://arxiv.org/abs/2305.18465",
                date: "2023-05-29",
                locator: "Abstract: more than twenty Gboard LMs, ρ-zCDP with ρ ∈ (0.2, 2); per-model \
                          values are in the paper's tables (not used here)",
            },
        ],
    },
    Deployment {
        id: "vaultgemma-1b-2025",
        label: "VaultGemma 1B",
        unit_short: "a 1024-token sequence",
        name: "VaultGemma 1B (pretrained from scratch with DP-SGD)",
        organisation: "Google Research and Google DeepMind",
        year: 2025,
        unit: "One sequence of 1024 consecutive tokens after sampling and packing of the training \
               mixture: not a document and not a user (a person whose text spans many sequences is \
               covered only by group privacy).",
        reported: "A (ε ≤ 2.0, δ ≤ 1.1e-10)-sequence-level DP guarantee from DP-SGD, 'where a sequence \
                   consists of 1024 consecutive tokens extracted from heterogeneous data sources. \
                   Specifically, the privacy unit of the guarantee is for the sequences after sampling \
                   and packing of the mixture.'",
        published: Published::ApproxDp {
            eps: 2.0,
            delta: 1.1e-10,
        },
        assumptions: "Read as f_{2.0, 1.1e-10}, an outer bound: one (ε, δ) pair fixes a polygon, not \
                      DP-SGD's own (much tighter) curve. Drawing that curve needs the noise multiplier, \
                      the sampling rate and the number of steps, which the technical report describes \
                      (DP-SGD with Poisson sampling made into fixed-size batches by padding or trimming); \
                      those values were not verified for this registry, so the Poisson DP-SGD form is not \
                      used.",
        sources: &[
            Source {
                title: "Hugging Face Transformers documentation, VaultGemma",
                url: "https://huggingface.co/docs/transformers/model_doc/vaultgemma",
                date: "2025-09-12",
                locator: "Overview: the (ε ≤ 2.0, δ ≤ 1.1e-10) sequence-level guarantee and its unit \
                          (added to Transformers on 2025-09-12)",
            },
            Source {
                title: "VaultGemma Team, VaultGemma: A Differentially Private Gemma Model (technical \
                        report)",
                url: "https://services.google.com/fh/files/blogs/vaultgemma_tech_report.pdf",
                date: "2025-09-12",
                locator: "The privacy guarantee and the DP-SGD training setup (its hyperparameters \
                          were not read for this registry)",
            },
        ],
    },
    Deployment {
        id: "wikimedia-pageviews-2023",
        label: "Wikimedia pageviews",
        unit_short: "a device-day (10 pageviews)",
        name: "Wikimedia daily pageviews by country, project and page (current release)",
        organisation: "Wikimedia Foundation, with Tumult Labs",
        year: 2023,
        unit: "One device's first 10 unique pageviews on one day (flagged on the device by the \
               differential-privacy cookie): further pageviews are not counted, and each day is a \
               separate release.",
        reported: "Each day: Gaussian noise, 'zero-concentrated differential privacy, rho=0.015, noise \
                   scale=10'; 'Privacy budget: rho = 0.015 (roughly equivalent to epsilon = 1, delta = \
                   1e-07)'; ingestion threshold 150 global pageviews (from the public REST API); release \
                   threshold 90 pageviews. The release covers 6 Feb 2023 onward; from 15 Feb 2024 \
                   medium- and higher-risk countries are released with other budgets.",
        published: Published::ZCdp { rho: 0.015 },
        assumptions: "ρ per day, for the original (lower-risk) release. Read as G_μ with μ = √(2ρ), \
                      which holds for continuous Gaussian noise (the README says Gaussian; a discrete \
                      Gaussian on integer counts is close). Days compose: k days are kρ-zCDP. The keys \
                      are fixed in advance, the release threshold acts on noisy counts and the ingestion \
                      threshold on public counts, so neither changes the guarantee as the README states \
                      it. The README's 'roughly ε = 1 at δ = 1e-7' is a conversion of ρ, not a separate \
                      guarantee.",
        sources: &[
            Source {
                title: "Wikimedia Foundation Privacy Engineering, Pageviews Differential Privacy: \
                        Current (dataset README)",
                url: "https://analytics.wikimedia.org/published/datasets/country_project_page/\
                      00_README.html",
                date: "2023",
                locator: "'Data creation pipeline' and 'Privacy parameters' (the page is undated; the \
                          release was announced in June 2023, and its 2024 updates are at the top)",
            },
            Source {
                title: "Adeleye et al., Publishing Wikipedia usage data with strong privacy guarantees \
                        (arXiv:2308.16298)",
                url: "https://arxiv.org/abs/2308.16298",
                date: "2023-08-30",
                locator: "The process and the algorithm; the numbers above are from the README",
            },
        ],
    },
    Deployment {
        id: "google-covid-symptoms-2020",
        label: "Google COVID-19 symptoms",
        unit_short: "a user-day",
        name: "Google COVID-19 Search Trends symptoms dataset",
        organisation: "Google",
        year: 2020,
        unit: "One user's symptom-search activity on one day.",
        reported: "'The anonymization process is designed to protect the daily symptom search activity \
                   of every user with ε-differential privacy for ε = 1.68.' The dataset gives daily and \
                   weekly series per region for about 400 symptoms.",
        published: Published::PureDp { eps: 1.68 },
        assumptions: "ε per day: one user, one day. Days compose (at most 1.68d over d days), and the \
                      weekly series spans seven days of activity; the report's abstract states only the \
                      daily guarantee. Read as f_{1.68,0}, an outer bound for any ε-DP mechanism: the \
                      noise actually added has its own, tighter curve that one ε does not fix.",
        sources: &[
            Source {
                title: "Bavadekar et al., Google COVID-19 Search Trends Symptoms Dataset: Anonymization \
                        Process Description (version 1.0) (arXiv:2009.01265)",
                url: "https://arxiv.org/abs/2009.01265",
                date: "2020-09-02",
                locator: "Abstract (ε = 1.68, daily activity of every user) and introduction (daily or \
                          weekly series per region, about 400 symptoms)",
            },
            Source {
                title: "Google Research publication page: Google COVID-19 Search Trends Symptoms \
                        Dataset: Anonymization Process Description",
                url: "https://research.google/pubs/\
                      google-covid-19-search-trends-symptoms-dataset-anonymization-process-description/",
                date: "2020",
                locator: "Abstract",
            },
        ],
    },
];
