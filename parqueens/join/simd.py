"""Vectors of ``uint64`` lanes in one LLVM vector, for the numba kernels.

numba's loop vectoriser does not turn the join's AND-and-popcount loops
into vector code; these intrinsics emit LLVM's vector operations directly
(``ir.VectorType``).  Two families with the same operations:

- ``v*`` (``vload``, ``vand``, ...): 4 lanes (``<4 x i64>``), one AVX2
  instruction each where the machine has AVX2, pairs of SSE or scalar
  instructions elsewhere;
- ``w*`` (``wload``, ``wand``, ...): :data:`LANES` lanes, the matcher's
  groups: 8 (one 512-bit AVX-512 instruction, the population count
  ``vpopcntq``) where the processor numba compiles for has AVX-512F and
  AVX512_VPOPCNTDQ, else 4.  The matcher's
  visit of 512 words takes what a visit of 256 took (2.06 and 2.05 ns, one
  group's tables in L1), so its matching of n = 22 row sets is 1.3 times
  faster.  The choice follows numba's target (``NUMBA_CPU_FEATURES`` where
  set, else the host's), which is also in the key of numba's cache, so a
  cached kernel never meets the other width.

The population count is ``llvm.ctpop`` (a table lookup by nibbles on AVX2).
:func:`wkeep` (AVX-512 only: ``vpcompressq``) stores the lanes of a vector
whose test is zero, packed: the half-boards of :mod:`parqueens.join.kernels`.
Used by :mod:`parqueens.join.kernels` and :mod:`parqueens.join.match`; the
vectors never leave a kernel.  :func:`cycles`, the processor's cycle
counter, times a part of a kernel (the estimate's samples,
:mod:`parqueens.join.rowsets`).
"""

import time

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.core.codegen import get_host_cpu_features
from numba.extending import intrinsic, models, register_model

from ..search.kernels import AS_PYTHON

__all__ = [
    "LANES",
    "vload",
    "vload_at",
    "vstore",
    "vsplat",
    "vand",
    "vor",
    "vxor",
    "vadd",
    "vshl",
    "vshr",
    "vpopcount",
    "vsum",
    "wload",
    "wload_at",
    "wstore",
    "wsplat",
    "wand",
    "wor",
    "wxor",
    "wadd",
    "wshl",
    "wshr",
    "wpopcount",
    "wsum",
    "wkeep",
    "cycles",
]


def _target_lanes():
    """8 where numba compiles for a processor with AVX-512F and
    AVX512_VPOPCNTDQ (its features: ``NUMBA_CPU_FEATURES``, else the
    host's), else 4."""
    features = config.CPU_FEATURES
    if features is None:
        features = get_host_cpu_features()
    wide = {"+avx512f", "+avx512vpopcntdq"}
    return 8 if wide <= set(features.split(",")) else 4


#: Lanes of the ``w*`` family (the matcher's groups are 64 times as many words).
LANES = _target_lanes()
_I32 = ir.IntType(32)


def _family(lanes):
    """The intrinsics of vectors of ``lanes`` uint64 lanes:
    ``(load, load_at, store, splat, and, or, xor, add, shl, shr, popcount, sum)``."""
    vt = ir.VectorType(ir.IntType(64), lanes)

    class VecType(types.Type):
        """The numba type of a ``<lanes x i64>`` value."""

        def __init__(self):
            super().__init__(name=f"v{lanes}u64")

    vec = VecType()

    @register_model(VecType)
    class VecModel(models.PrimitiveModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, vt)

    def splat(builder, x):
        v = builder.insert_element(ir.Constant(vt, ir.Undefined), x, ir.Constant(_I32, 0))
        zeros = ir.Constant(ir.VectorType(_I32, lanes), [0] * lanes)
        return builder.shuffle_vector(v, ir.Constant(vt, ir.Undefined), zeros)

    def pointer(context, builder, arrty, arr, idx):
        data = context.make_array(arrty)(context, builder, arr).data
        return builder.bitcast(builder.gep(data, [idx]), vt.as_pointer())

    @intrinsic
    def load(typingctx, arr, idx):
        def codegen(context, builder, sig, args):
            return builder.load(pointer(context, builder, sig.args[0], args[0], args[1]), align=8)

        return vec(arr, idx), codegen

    @intrinsic
    def load_at(typingctx, arr, base, idx):
        # (arr + base) + idx, not arr + (base + idx): a base held for a
        # run of words (a group's tables) then folds into the load's
        # address, where LLVM otherwise adds the array's start to every
        # index (the matcher 7 % faster).
        def codegen(context, builder, sig, args):
            data = context.make_array(sig.args[0])(context, builder, args[0]).data
            at = builder.gep(builder.gep(data, [args[1]]), [args[2]])
            return builder.load(builder.bitcast(at, vt.as_pointer()), align=8)

        return vec(arr, base, idx), codegen

    @intrinsic
    def store(typingctx, arr, idx, v):
        def codegen(context, builder, sig, args):
            builder.store(
                args[2], pointer(context, builder, sig.args[0], args[0], args[1]), align=8
            )
            return context.get_dummy_value()

        return types.none(arr, idx, vec), codegen

    @intrinsic
    def splat_(typingctx, x):
        def codegen(context, builder, sig, args):
            return splat(builder, args[0])

        return vec(types.uint64), codegen

    def binary(op):
        @intrinsic
        def vop(typingctx, a, b):
            def codegen(context, builder, sig, args):
                return getattr(builder, op)(args[0], args[1])

            return vec(vec, vec), codegen

        return vop

    def shift(op):
        @intrinsic
        def vop(typingctx, a, s):
            def codegen(context, builder, sig, args):
                return getattr(builder, op)(args[0], splat(builder, args[1]))

            return vec(vec, types.uint64), codegen

        return vop

    @intrinsic
    def popcount(typingctx, a):
        def codegen(context, builder, sig, args):
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vt, [vt]), f"llvm.ctpop.v{lanes}i64"
            )
            return builder.call(fn, [args[0]])

        return vec(vec), codegen

    @intrinsic
    def total(typingctx, a):
        def codegen(context, builder, sig, args):
            parts = [builder.extract_element(args[0], ir.Constant(_I32, i)) for i in range(lanes)]
            while len(parts) > 1:  # a tree of additions
                parts = [builder.add(a, b) for a, b in zip(parts[::2], parts[1::2], strict=True)]
            return parts[0]

        return types.uint64(vec), codegen

    ops = (binary("and_"), binary("or_"), binary("xor"), binary("add"), shift("shl"), shift("lshr"))
    return (load, load_at, store, splat_, *ops, popcount, total)


#: 4 lanes: ``vload(arr, idx)`` the words ``arr[idx:idx + 4]`` of a
#: C-contiguous uint64 array (unchecked, as numba's indexing),
#: ``vload_at(arr, base, idx)`` those of ``arr[base + idx:]``,
#: ``vstore(arr, idx, v)``, ``vsplat(x)`` (4 copies of a uint64), lane-wise
#: ``vand``, ``vor``, ``vxor``, ``vadd``, ``vshl(a, s)``, ``vshr(a, s)`` (s
#: uint64), ``vpopcount`` (per lane) and ``vsum`` (the lanes' sum, uint64).
_V4 = _family(4)
vload, vload_at, vstore, vsplat, vand, vor, vxor, vadd, vshl, vshr, vpopcount, vsum = _V4
#: The same on :data:`LANES` lanes.
wload, wload_at, wstore, wsplat, wand, wor, wxor, wadd, wshl, wshr, wpopcount, wsum = (
    _family(LANES) if LANES != 4 else _V4
)


@intrinsic
def _wkeep(typingctx, arr, idx, v, t):
    """``wkeep(arr, idx, v, t)``: the lanes of ``v`` whose lane of ``t`` is
    zero, in order, stored at ``arr[idx:]``; returns how many (int64).  It
    writes all :data:`LANES` words ``arr[idx:idx + LANES]`` (those past the
    count hold anything), so ``arr`` needs that room.  AVX-512 only
    (``vpcompressq``, one instruction for the 8 lanes): where
    :data:`LANES` is 4 it is not defined, and callers keep a scalar loop."""
    lanes = LANES
    vt = ir.VectorType(ir.IntType(64), lanes)
    mt = ir.VectorType(ir.IntType(1), lanes)

    def codegen(context, builder, sig, args):
        a, i, vals, test = args
        keep = builder.icmp_unsigned("==", test, ir.Constant(vt, [0] * lanes))
        fn = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(vt, [vt, vt, mt]),
            f"llvm.x86.avx512.mask.compress.v{lanes}i64",
        )
        packed = builder.call(fn, [vals, ir.Constant(vt, [0] * lanes), keep])
        data = context.make_array(sig.args[0])(context, builder, a).data
        builder.store(packed, builder.bitcast(builder.gep(data, [i]), vt.as_pointer()), align=8)
        bits = builder.bitcast(keep, ir.IntType(lanes))
        pop = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.IntType(lanes), [ir.IntType(lanes)]),
            f"llvm.ctpop.i{lanes}",
        )
        return builder.zext(builder.call(pop, [bits]), ir.IntType(64))

    return types.int64(arr, idx, v, t), codegen


@intrinsic
def _cycles(typingctx):
    """The processor's cycle counter (``llvm.readcyclecounter``: the time
    stamp counter on x86, 0 where a machine has none), a uint64."""

    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), []), "llvm.readcyclecounter"
        )
        return builder.call(fn, [])

    return types.uint64(), codegen


# ---------------------------------------------------------------- in Python
# With NUMBA_DISABLE_JIT=1 (to step through the kernels in a debugger) the
# kernels run as Python, where an intrinsic has no body: the same
# operations on numpy arrays of lanes, ``cycles`` in nanoseconds.


def _python_family(lanes):
    def shift(op):
        return lambda a, s: op(a, np.uint64(s))

    return (
        lambda arr, idx: arr[idx : idx + lanes].copy(),
        lambda arr, base, idx: arr[base + idx : base + idx + lanes].copy(),
        lambda arr, idx, v: arr.__setitem__(slice(idx, idx + lanes), v),
        lambda x: np.full(lanes, x, dtype=np.uint64),
        np.bitwise_and,
        np.bitwise_or,
        np.bitwise_xor,
        np.add,
        shift(np.left_shift),
        shift(np.right_shift),
        lambda a: np.bitwise_count(a).astype(np.uint64),
        lambda a: a.sum(dtype=np.uint64),
    )


def _python_wkeep(arr, idx, v, t):
    kept = v[t == 0]
    arr[idx : idx + len(kept)] = kept
    return len(kept)


def _python_cycles():
    return np.uint64(time.perf_counter_ns())


wkeep = _python_wkeep if AS_PYTHON else _wkeep
cycles = _python_cycles if AS_PYTHON else _cycles
if AS_PYTHON:
    _V4 = _python_family(4)
    vload, vload_at, vstore, vsplat, vand, vor, vxor, vadd, vshl, vshr, vpopcount, vsum = _V4
    wload, wload_at, wstore, wsplat, wand, wor, wxor, wadd, wshl, wshr, wpopcount, wsum = (
        _python_family(LANES)
    )
