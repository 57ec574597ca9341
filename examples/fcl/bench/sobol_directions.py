#!/usr/bin/env python3
"""Writes sobol_direction_vectors.csv: the Sobol direction numbers of the first 8 dimensions, 30
bits each, one dimension per line (v[j] = m_j * 2^(30 - j) for j = 1..30, as ints below 2^30).

Dimension 1 has every m_j = 1 (v[j] = 2^(30-j)). The others follow Joe and Kuo's primitive
polynomials and initial numbers (file new-joe-kuo-6.21201, its first lines: d s a m_1..m_s),
extended by Bratley and Fox's recurrence
    m_j = 2 a_1 m_{j-1} xor 4 a_2 m_{j-2} xor ... xor 2^s m_{j-s} xor m_{j-s}
where a_1..a_{s-1} are the bits of a (most significant first).

Run from this directory: python3 sobol_directions.py > sobol_direction_vectors.csv
"""

BITS = 30
# d, s, a, m_1..m_s (new-joe-kuo-6.21201, dimensions 2..8)
JOE_KUO = [
    (2, 1, 0, [1]),
    (3, 2, 1, [1, 3]),
    (4, 3, 1, [1, 3, 1]),
    (5, 3, 2, [1, 1, 1]),
    (6, 4, 1, [1, 1, 3, 3]),
    (7, 4, 4, [1, 3, 5, 13]),
    (8, 5, 2, [1, 1, 5, 5, 17]),
]


def directions(s, a, m_init):
    m = list(m_init)
    for j in range(s, BITS):
        new = m[j - s] ^ (m[j - s] << s)
        for k in range(1, s):
            if (a >> (s - 1 - k)) & 1:
                new ^= m[j - k] << k
        m.append(new)
    return [m[j] << (BITS - 1 - j) for j in range(BITS)]


def main():
    rows = [[1 << (BITS - 1 - j) for j in range(BITS)]]
    rows += [directions(s, a, m) for (_, s, a, m) in JOE_KUO]
    for r in rows:
        print(",".join(str(v) for v in r))


if __name__ == "__main__":
    main()
