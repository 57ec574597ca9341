#!/usr/bin/env python3
"""Independent computation (Python floats, C libm) of examples/fcl/doubles-ext.expected and
doubles-ext-math.expected. Run: python3 scripts/doubles_ext_expected.py [math]"""
import sys
if len(sys.argv) < 2:
    # Independent computation of examples/fcl/doubles-ext.expected (Python floats = IEEE binary64).
    import math
    nan, inf = float('nan'), float('inf')
    xs = [2.0, -3.5, 0.0, -0.0, nan, inf, 1e300, 0.25]
    def rust(x):  # Rust's {:?} for f64
        if math.isnan(x): return 'NaN'
        if math.isinf(x): return 'inf' if x > 0 else '-inf'
        r = repr(x)
        if 'e' in r:
            m, e = r.split('e'); e = int(e)
            return f"{m}e{e}"
        return r
    def line(vs, f=rust): return '[' + ','.join(f(v) for v in vs) + ']'
    maxd = lambda x, y: x if x > y else y
    mind = lambda x, y: x if x < y else y
    def c5(x):
        if math.isnan(x): return 'nan' if math.copysign(1, x) > 0 else '-nan'
        return '%.5f' % x
    clamp = lambda x: maxd(mind(x, 1000.0), -1000.0)
    b = int
    out = [
        line(xs),
        line([-x for x in xs]),
        line([abs(x) for x in xs]),
        line([maxd(x, 1.0) for x in xs]),
        line([maxd(1.0, x) for x in xs]),
        line([mind(x, 1.0) for x in xs]),
        line([mind(1.0, x) for x in xs]),
        line([math.sqrt(abs(x)) if not math.isnan(x) else nan for x in xs]),
        line([x * 1e10 for x in xs]),
        line([math.floor(clamp(x)) for x in xs], str),
        line([math.ceil(clamp(x)) for x in xs], str),
        line([1 if x >= 0.0 else -1 for x in xs], str),
        line([b(x < 0) + 2*b(x <= 0) + 4*b(x > 0) + 8*b(x >= 0) + 16*b(x == 0) for x in xs], str),
        line([(lambda p, q: b(p and q) + 2*b(p or q) + 4*b(p != q) + 8*b(p == q) + 16*b(not p))(x < 1.0, x > -1.0) for x in xs], str),
        line([clamp(x) for x in xs], c5),
    ]
    print('\n'.join(out))
else:
    # Independent computation of examples/fcl/doubles-ext-math.expected with Python's math (C libm).
    import math
    xs = [0.5, -0.75, 0.0, 1.0, 2.5, -1.0]
    def rust(x):
        if math.isnan(x): return 'NaN'
        if math.isinf(x): return 'inf' if x > 0 else '-inf'
        r = repr(x)
        if 'e' in r:
            m, e = r.split('e'); return f"{m}e{int(e)}"
        return r
    def log(x):
        if x == 0: return -math.inf
        if x < 0: return math.nan
        return math.log(x)
    fs = [lambda x: 2.0 ** x, lambda x: abs(x) ** 1.5, math.exp, lambda x: log(abs(x)), math.sin, math.cos,
          math.tan, lambda x: math.asin(x / 2.5), lambda x: math.acos(x / 2.5), math.atan, math.sinh, math.cosh,
          math.tanh, log]
    print('\n'.join('[' + ','.join(rust(f(x)) for x in xs) + ']' for f in fs))
