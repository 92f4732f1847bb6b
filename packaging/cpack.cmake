# The Debian packages (CPack's DEB generator; scripts/package.sh runs it on a build configured
# for packaging).
#
#   collective-studio      both programs, the docs and examples, man pages, completions, the
#                          desktop entry, icons, AppStream metainfo and the MIME type; its
#                          dependencies are computed by dpkg-shlibdeps.
#   collective-studio-gpu  (where CUDA is found) the CUDA and NCCL executors as modules the
#                          backend registry loads at run time, depending on the CUDA runtime and
#                          NCCL packages (gpupackage.cmake). The programs never link CUDA or
#                          NCCL, so the main package runs on machines without them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME collective-studio)
set(CPACK_PACKAGE_VENDOR "Collective Studio")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${CSTUDIO_MAINTAINER})
set(CPACK_PACKAGE_HOMEPAGE_URL ${CSTUDIO_HOMEPAGE_URL})
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
# Directories 0755 whatever the umask of the machine that packs (lintian: non-standard-dir-perm).
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL main)
if(TARGET cs_backend_cuda)
  list(APPEND CPACK_COMPONENTS_ALL gpu)
  include(gpupackage.cmake)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${CSTUDIO_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_MAIN_PACKAGE_NAME collective-studio)
# Qt finds its image plugins and the offscreen platform through these packages' libraries; the
# SVG icon needs the SVG image plugin, which dpkg-shlibdeps cannot see.
set(CPACK_DEBIAN_MAIN_PACKAGE_RECOMMENDS "qt6-svg-plugins")

set(CPACK_COMPONENT_MAIN_DISPLAY_NAME "Collective Studio")
set(CPACK_COMPONENT_MAIN_DESCRIPTION
  "design, check, simulate and run GPU collective algorithms
Collective Studio designs, checks, simulates, runs and teaches GPU
collective-communication algorithms in the MSCCL algorithm XML that the
MSCCL and RCCL runtimes load.
.
The package holds the desktop editor collective-studio (a step timeline,
topology canvas, live checker, algorithm library and visual debugger for
recorded runs) and the headless command line cstudio (validate, info,
export, generate, simulate, run on the CPU, replay and the library), with
the documentation and generated examples.")

include(CPack)

if(TARGET cs_backend_cuda)
  cpack_add_component(gpu DISPLAY_NAME "${CPACK_COMPONENT_GPU_DISPLAY_NAME}"
    DESCRIPTION "${CPACK_COMPONENT_GPU_DESCRIPTION}" DEPENDS main)
endif()
