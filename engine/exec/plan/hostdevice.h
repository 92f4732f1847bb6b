#pragma once

// Code shared by the CUDA kernels (engine/exec/cuda) and their host emulation
// (emulatedexecutor.h) is written once and marked CS_HD: nvcc compiles it for both sides, a plain
// C++ compiler sees ordinary inline functions. CS_DEVICE_PASS is true only in nvcc's device pass.

#if defined(__CUDACC__)
#define CS_HD __host__ __device__
#else
#define CS_HD
#endif

#if defined(__CUDA_ARCH__)
#define CS_DEVICE_PASS 1
#else
#define CS_DEVICE_PASS 0
#endif
