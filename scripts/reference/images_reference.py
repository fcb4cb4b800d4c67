# Reference ε for the image lab's runs: dp_accounting's PLD accountant (pessimistic, 1e-4 grid) on the
# PCA's Gaussian (σp, sensitivity 1) composed with T Poisson-subsampled Gaussian steps.
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
def eps(sigma, q, steps, pca_sigma, delta=1e-5):
    ev = [dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)]
    if pca_sigma > 0:
        ev.insert(0, dp_accounting.GaussianDpEvent(pca_sigma))
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    acc.compose(dp_accounting.ComposedDpEvent(ev))
    return acc.get_epsilon(delta)
for args in [(4, 0.01, 1000, 7), (4, 0.01, 10000, 7), (8, 0.01, 10000, 16), (2, 0.01, 10000, 4), (4, 0.01, 1000, 0)]:
    print(args, eps(*args))
