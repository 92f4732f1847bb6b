# cs_exec_cuda: the CUDA executor, the only target nvcc compiles (DESIGN.md §2). Included from
# engine/CMakeLists.txt when nvcc was found; paths are relative to engine/.
add_library(cs_exec_cuda STATIC
  exec/cuda/cudaexecutor.h exec/cuda/cudaexecutor.cpp
  exec/cuda/cudarun_p.h exec/cuda/cudaprepare.cpp
  exec/cuda/devicebuffers_p.h exec/cuda/devicebuffers.cpp
  exec/cuda/watchchannel_p.h exec/cuda/watchchannel.cpp
  exec/cuda/blockkernel_p.h exec/cuda/blockkernel.cu
  exec/cudart/cudastatus.h
  exec/cuda/deviceplatform_p.cuh
)
target_link_libraries(cs_exec_cuda PUBLIC cs::engine PRIVATE CUDA::cudart)
# The interpreter calls model/program.h's constexpr opTraits() from device code.
target_compile_options(cs_exec_cuda PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra>)
set_target_properties(cs_exec_cuda PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON
  CUDA_EXTENSIONS OFF)
cstudio_target_warnings(cs_exec_cuda)
