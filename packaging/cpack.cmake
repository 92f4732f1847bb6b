# The Debian packages (CPack's DEB generator; scripts/package.sh runs it on a build configured
# for packaging).
#
#   collective-studio      both programs, the docs and examples, man pages, completions, the
#                          desktop entry, icons, AppStream metainfo and the MIME type; its
#                          dependencies are computed by dpkg-shlibdeps.
#   collective-studio-gpu  (defined where CUDA is found) the CUDA and NCCL executors as modules
#                          the backend registry loads at run time, depending on the CUDA runtime
#                          and NCCL packages. Until the executors become such modules (issue 20,
#                          item 1) they are linked into the programs, so this component holds no
#                          files and is not built, and a build that links them makes a main package
#                          that needs NCCL: scripts/package.sh therefore configures with
#                          -DCSTUDIO_CUDA=OFF, and the main package runs on machines without CUDA.

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

if(CSTUDIO_HAVE_CUDA)
  cpack_add_component(gpu
    DISPLAY_NAME "Collective Studio GPU backends"
    DESCRIPTION "CUDA and NCCL executors for Collective Studio"
    DEPENDS main)
  set(CPACK_DEBIAN_GPU_PACKAGE_NAME collective-studio-gpu)
  message(STATUS "Packages: this build links the CUDA and NCCL executors into the programs, so "
                 "its main package would need NCCL; scripts/package.sh builds with "
                 "-DCSTUDIO_CUDA=OFF (see packaging/cpack.cmake)")
endif()
