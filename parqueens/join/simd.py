"""Four ``uint64`` lanes in one LLVM vector, for the numba kernels.

numba's loop vectoriser does not turn the join's AND-and-popcount loops
into vector code; these intrinsics emit LLVM's ``<4 x i64>`` operations
directly (``ir.VectorType``), which LLVM lowers to one AVX2 instruction
each where the machine has AVX2, and to pairs of SSE or scalar
instructions elsewhere, so the kernels stay portable.  The population
count is ``llvm.ctpop.v4i64`` (a table lookup by nibbles on AVX2).  Used
by :mod:`parqueens.join.kernels`; the vectors never leave a kernel.
:func:`cycles`, the processor's cycle counter, times a part of a kernel
(the estimate's samples, :mod:`parqueens.join.rowsets`).
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, models, register_model


class _V4Type(types.Type):
    """The numba type of a ``<4 x i64>`` value."""

    def __init__(self):
        super().__init__(name="v4u64")


V4 = _V4Type()
_VT = ir.VectorType(ir.IntType(64), 4)
_I32 = ir.IntType(32)


@register_model(_V4Type)
class _V4Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VT)


def _splat(builder, x):
    v = builder.insert_element(ir.Constant(_VT, ir.Undefined), x, ir.Constant(_I32, 0))
    zeros = ir.Constant(ir.VectorType(_I32, 4), [0, 0, 0, 0])
    return builder.shuffle_vector(v, ir.Constant(_VT, ir.Undefined), zeros)


def _pointer(context, builder, arrty, arr, idx):
    data = context.make_array(arrty)(context, builder, arr).data
    return builder.bitcast(builder.gep(data, [idx]), _VT.as_pointer())


@intrinsic
def vload(typingctx, arr, idx):
    """The 4 words ``arr[idx:idx + 4]`` of a C-contiguous uint64 array
    (unchecked, as numba's indexing)."""

    def codegen(context, builder, sig, args):
        return builder.load(_pointer(context, builder, sig.args[0], args[0], args[1]), align=8)

    return V4(arr, idx), codegen


@intrinsic
def vstore(typingctx, arr, idx, v):
    """Store a vector into ``arr[idx:idx + 4]``."""

    def codegen(context, builder, sig, args):
        builder.store(args[2], _pointer(context, builder, sig.args[0], args[0], args[1]), align=8)
        return context.get_dummy_value()

    return types.none(arr, idx, V4), codegen


@intrinsic
def vsplat(typingctx, x):
    """Four copies of the uint64 ``x``."""

    def codegen(context, builder, sig, args):
        return _splat(builder, args[0])

    return V4(types.uint64), codegen


def _binary(op):
    @intrinsic
    def vop(typingctx, a, b):
        def codegen(context, builder, sig, args):
            return getattr(builder, op)(args[0], args[1])

        return V4(V4, V4), codegen

    return vop


def _shift(op):
    @intrinsic
    def vop(typingctx, a, s):
        def codegen(context, builder, sig, args):
            return getattr(builder, op)(args[0], _splat(builder, args[1]))

        return V4(V4, types.uint64), codegen

    return vop


#: Lane-wise ``a & b``, ``a ^ b``, ``a + b``; ``a << s``, ``a >> s`` (s uint64).
vand = _binary("and_")
vxor = _binary("xor")
vadd = _binary("add")
vshl = _shift("shl")
vshr = _shift("lshr")


@intrinsic
def vpopcount(typingctx, a):
    """Per-lane population count."""

    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_VT, [_VT]), "llvm.ctpop.v4i64"
        )
        return builder.call(fn, [args[0]])

    return V4(V4), codegen


@intrinsic
def vsum(typingctx, a):
    """The sum of the four lanes (uint64)."""

    def codegen(context, builder, sig, args):
        lanes = [builder.extract_element(args[0], ir.Constant(_I32, i)) for i in range(4)]
        return builder.add(builder.add(lanes[0], lanes[1]), builder.add(lanes[2], lanes[3]))

    return types.uint64(V4), codegen


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter (``llvm.readcyclecounter``: the time
    stamp counter on x86, 0 where a machine has none), a uint64."""

    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), []), "llvm.readcyclecounter"
        )
        return builder.call(fn, [])

    return types.uint64(), codegen
