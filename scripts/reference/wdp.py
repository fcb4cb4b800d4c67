"""Reference values for the WDP lab (src/wdp): ln E|Z|^mu of Z ~ N(m, s^2) by mpmath at 60 digits.

E|Z|^mu = (2 s^2)^(mu/2) Gamma((mu+1)/2)/sqrt(pi) * 1F1(-mu/2; 1/2; -m^2/(2 s^2))  (Winkelbauer 2012, eq. 17),
checked here against direct quadrature of |z|^mu times the normal density.
Run: python3 scripts/reference/wdp.py   (mpmath 1.3)
"""
import mpmath as mp

mp.mp.dps = 60


def ln_moment(mu, m, s):
    mu, m, s = mp.mpf(mu), mp.mpf(m), mp.mpf(s)
    x = m * m / (2 * s * s)
    v = (2 * s * s) ** (mu / 2) * mp.gamma((mu + 1) / 2) / mp.sqrt(mp.pi) * mp.hyp1f1(-mu / 2, 0.5, -x)
    return mp.log(v)


def ln_moment_quad(mu, m, s):
    mu, m, s = mp.mpf(mu), mp.mpf(m), mp.mpf(s)
    f = lambda z: abs(z) ** mu * mp.npdf(z, m, s)
    pts = sorted({-mp.inf, min(mp.mpf(0), m - 40 * s), mp.mpf(0), m, max(mp.mpf(0), m + 40 * s), mp.inf})
    return mp.log(mp.quad(f, pts))


CASES = [
    (1.0, 1e-3, 0.28),
    (2.5, 0.3, 0.7),
    (16.0, 0.002, 0.2828),
    (16.0, 5.0, 1.0),
    (16.0, 80.0, 1.0),
    (33.3, 12.0, 0.5),
    (64.0, 1.0, 1.0),
    (64.0, 60.0, 1.0),
    (64.0, 400.0, 1.0),
    (64.0, 362.0, 1.0),
    (64.0, 1e4, 2.0),
    (7.0, 1e6, 3.0),
]

if __name__ == "__main__":
    for mu, m, s in CASES:
        a = ln_moment(mu, m, s)
        if mu * mp.log(abs(m) + s) < 700:
            b = ln_moment_quad(mu, m, s)
            assert abs(a - b) < mp.mpf(10) ** -30, (mu, m, s, a, b)
        print(f"({mu!r}, {m!r}, {s!r}, {mp.nstr(a, 20)}),")
