"""Reference values for the training lab's tests (tests in src/labs/train/tests.rs name this script).

Dev tool, never a runtime dependency:
    python3 -m venv ~/.cache/dp-playground/venv && ~/.cache/dp-playground/venv/bin/pip install numpy==2.1.3 scikit-learn==1.5.2
    ~/.cache/dp-playground/venv/bin/python scripts/reference/train_reference.py

Setup shared with the tests: the vendored breast-cancer CSV (src/learning/data/breast_cancer.csv), all 569
rows as training rows, standardised by their mean and population standard deviation (ddof = 0).

1. scikit-learn's optimum of (1/n) Σ log-loss + (λ/2)‖w‖² (bias unpenalised): LogisticRegression with
   C = 1/(λ n), lbfgs, tol 1e-12.
2. An independent numpy DP-SGD (Abadi et al. 2016 with Poisson sampling): θ₀ = 0, each row in each batch
   with probability q, per-example gradients clipped to C, N(0, σ²C²) added to the sum, divided by q·n,
   plus λ·w, learning rate η; 200 seeds per setting: the training accuracy's mean, sd, 2.5 % and 97.5 %
   quantiles.
"""
import numpy as np
from pathlib import Path
from sklearn.linear_model import LogisticRegression

root = Path(__file__).resolve().parents[2]
raw = np.loadtxt(root / "src/learning/data/breast_cancer.csv", delimiter=",", skiprows=1)
X, y = raw[:, :-1], raw[:, -1]
X = (X - X.mean(axis=0)) / X.std(axis=0)
n, d = X.shape


def objective(w, b, lam):
    z = X @ w + b
    loss = np.mean(np.logaddexp(0, z) - y * z)
    return loss, loss + 0.5 * lam * w @ w, np.mean((z >= 0) == (y == 1))


lam = 0.01
clf = LogisticRegression(C=1 / (lam * n), tol=1e-12, max_iter=100000).fit(X, y)
loss, obj, acc = objective(clf.coef_[0], clf.intercept_[0], lam)
print(f"sklearn λ={lam}: log-loss {loss!r} objective {obj!r} accuracy {acc!r} bias {clf.intercept_[0]!r}")


def dpsgd(q, sigma, clip, lr, lam, steps, seed):
    rng = np.random.default_rng(seed)
    w, b = np.zeros(d), 0.0
    for _ in range(steps):
        idx = np.nonzero(rng.random(n) < q)[0]
        z = X[idx] @ w + b
        r = 1 / (1 + np.exp(-z)) - y[idx]
        g = np.hstack([r[:, None] * X[idx], r[:, None]])
        norms = np.linalg.norm(g, axis=1)
        g *= np.minimum(1, clip / np.maximum(norms, 1e-300))[:, None]
        s = g.sum(axis=0) + sigma * clip * rng.standard_normal(d + 1)
        s /= q * n
        w -= lr * (s[:d] + lam * w)
        b -= lr * s[d]
    return objective(w, b, lam)[2]


for sigma in (0.5, 2.0, 8.0):
    accs = np.array([dpsgd(0.05, sigma, 1.0, 0.5, 1e-3, 600, s) for s in range(200)])
    print(f"numpy DP-SGD q=0.05 σ={sigma} C=1 η=0.5 λ=1e-3 T=600: mean {accs.mean():.6f} sd {accs.std(ddof=1):.6f} "
          f"q2.5 {np.quantile(accs, 0.025):.6f} q97.5 {np.quantile(accs, 0.975):.6f}")
