# cs_exec_nccl: the NCCL executor (DESIGN.md §5), one rank per GPU exchanging through NCCL.
# Included from engine/CMakeLists.txt when CUDA and NCCL were found; paths are relative to engine/.
# Its round scheduler and device assignment are plain C++ and live in cs_engine (sources.cmake).
add_library(cs_exec_nccl STATIC
  exec/nccl/ncclexecutor.h exec/nccl/ncclexecutor.cpp
  exec/nccl/ncclsession_p.h exec/nccl/ncclsession.cpp exec/nccl/ncclsessionlaunch.cpp
  exec/nccl/librarycollective_p.h exec/nccl/librarycollective.cpp
  exec/nccl/ncclstatus_p.h exec/cudart/cudastatus.h
  exec/nccl/ncclkernels_p.h exec/nccl/ncclkernels.cu
)
target_link_libraries(cs_exec_nccl PUBLIC cs::engine PRIVATE CUDA::cudart ${CSTUDIO_NCCL_LIBRARY})
target_include_directories(cs_exec_nccl PRIVATE ${CSTUDIO_NCCL_INCLUDE_DIR})
# The local kernels use plan/elementops.h, which calls constexpr functions from device code.
target_compile_options(cs_exec_nccl PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra>)
set_target_properties(cs_exec_nccl PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON
  CUDA_EXTENSIONS OFF)
cstudio_target_warnings(cs_exec_nccl)
