"""Published counts, for the explicit ``--verify`` option only.

Every count parqueens prints is computed; these values are used solely to
check a computed result when the user asks for it.  Sources: OEIS A000170
(total solutions) and OEIS A002562 (fundamental solutions; n = 0 by the usual
convention of one empty placement); n = 26 and 27 from Preußer & Engelhardt,
"Putting Queens in Carry Chains, No. 27", J. Signal Processing Systems 88, 2017.
"""

__all__ = ["KNOWN", "check"]


#: n -> (total, fundamental)
KNOWN = {
    0: (1, 1),
    1: (1, 1),
    2: (0, 0),
    3: (0, 0),
    4: (2, 1),
    5: (10, 2),
    6: (4, 1),
    7: (40, 6),
    8: (92, 12),
    9: (352, 46),
    10: (724, 92),
    11: (2680, 341),
    12: (14200, 1787),
    13: (73712, 9233),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
    17: (95815104, 11977939),
    18: (666090624, 83263591),
    19: (4968057848, 621012754),
    20: (39029188884, 4878666808),
    21: (314666222712, 39333324973),
    22: (2691008701644, 336376244042),
    23: (24233937684440, 3029242658210),
    24: (227514171973736, 28439272956934),
    25: (2207893435808352, 275986683743434),
    26: (22317699616364044, 2789712466510289),
    27: (234907967154122528, 29363495934315694),
}


def check(n, total, fundamental=None):
    """Compare computed counts with the published ones.

    Returns ``(ok, message)``: ``ok`` is None when n is beyond the table.
    """
    if n not in KNOWN:
        return None, f"n = {n}: no published value to verify against"
    want_total, want_fund = KNOWN[n]
    bad = []
    if total != want_total:
        bad.append(f"total {total} != {want_total}")
    if fundamental is not None and fundamental != want_fund:
        bad.append(f"fundamental {fundamental} != {want_fund}")
    if bad:
        return False, f"n = {n}: MISMATCH with OEIS: " + "; ".join(bad)
    # A002562 starts at n = 1; n = 0 (one empty placement) is only a convention.
    also = (
        ""
        if fundamental is None
        else (" and A002562" if n >= 1 else " (fundamental: 1 by convention)")
    )
    return True, f"n = {n}: matches OEIS A000170{also}"
