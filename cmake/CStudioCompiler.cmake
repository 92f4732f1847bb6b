# Compiler set-up shared by every target: ccache, warnings, sanitizers.

find_program(CSTUDIO_CCACHE ccache)
if(CSTUDIO_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CSTUDIO_CCACHE}")
  set(CMAKE_CUDA_COMPILER_LAUNCHER "${CSTUDIO_CCACHE}")
endif()

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

# Warnings stay PRIVATE to our own targets (STYLE.md 13): call this on each target we define.
function(cstudio_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
        -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough>)
    if(CSTUDIO_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
endfunction()

if(CSTUDIO_SANITIZE)
  add_compile_options(-fsanitize=${CSTUDIO_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${CSTUDIO_SANITIZE})
endif()
