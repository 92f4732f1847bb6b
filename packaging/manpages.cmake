# The man pages cstudio(1) and collective-studio(1), generated at build time by help2man from the
# programs' own --help and --version (cstudio's with every subcommand's --help, mancommands.cmake),
# so that no hand-written copy can drift. Without help2man they are skipped with a message.

find_program(CSTUDIO_HELP2MAN help2man)
if(NOT CSTUDIO_HELP2MAN)
  message(STATUS "help2man not found: the man pages are not built")
  return()
endif()

set(man_dir ${CMAKE_CURRENT_BINARY_DIR}/man)
# help2man runs the programs by name from PATH, so the pages show "cstudio", not a build path.
# cstudio's version comes from CMake: its --version also lists the backends this machine has.
set(help2man_env ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:cstudio>:$ENV{PATH}")
add_custom_command(OUTPUT ${man_dir}/cstudio.1.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
  COMMAND ${CMAKE_COMMAND} -DCSTUDIO=$<TARGET_FILE:cstudio> -DOUT=${man_dir}/cstudio.h2m
          -P ${CMAKE_CURRENT_SOURCE_DIR}/mancommands.cmake
  COMMAND ${help2man_env} ${CSTUDIO_HELP2MAN} --no-info --section 1
          --version-string ${PROJECT_VERSION}
          --name "design, check, simulate and run GPU collective algorithms (MSCCL XML)"
          --include ${man_dir}/cstudio.h2m --output ${man_dir}/cstudio.1 cstudio
  COMMAND gzip -9nf ${man_dir}/cstudio.1
  DEPENDS cstudio ${CMAKE_CURRENT_SOURCE_DIR}/mancommands.cmake
  COMMENT "Generating the man page cstudio(1)"
  VERBATIM)
set(man_pages ${man_dir}/cstudio.1.gz)

if(TARGET collective-studio)
  set(studio_env ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:collective-studio>:$ENV{PATH}"
    QT_QPA_PLATFORM=offscreen)
  add_custom_command(OUTPUT ${man_dir}/collective-studio.1.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
    COMMAND ${studio_env} ${CSTUDIO_HELP2MAN} --no-info --section 1
            --name "desktop editor for GPU collective algorithms (MSCCL XML)"
            --output ${man_dir}/collective-studio.1 collective-studio
    COMMAND gzip -9nf ${man_dir}/collective-studio.1
    DEPENDS collective-studio
    COMMENT "Generating the man page collective-studio(1)"
    VERBATIM)
  list(APPEND man_pages ${man_dir}/collective-studio.1.gz)
endif()

add_custom_target(cs_man_pages ALL DEPENDS ${man_pages})
install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
