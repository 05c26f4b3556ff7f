#pragma once
// Which vector instructions the contact loops may use. The loops are compiled for the baseline
// x86-64 (SSE2, two doubles an instruction) and again for AVX2 (four), chosen at run time: the
// laws' loops over lanes ran 7-9% faster for AVX2 on the chute (docs/performance.md).
namespace grainlab {

enum class VectorIsa { Baseline, Avx2 };

// AVX2 where the processor has it. The AVX2 loops are compiled without FMA, so that both give the
// same bits (a fused multiply-add rounds once where the baseline rounds twice).
// GRAINLAB_VECTOR_ISA=baseline in the environment forces the baseline loops, for comparing the two;
// it is read at every call.
VectorIsa contactLoopIsa();

}  // namespace grainlab
