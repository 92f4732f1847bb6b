# bash, zsh and fish completions for cstudio, written at build time by the program itself from its
# CLI definition (`cstudio completions SHELL`, app/cstudio/completions.h), installed where each
# shell looks for vendor completions.

set(completions_dir ${CMAKE_CURRENT_BINARY_DIR}/completions)
set(completion_files)
foreach(entry "bash|cstudio|${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
              "zsh|_cstudio|${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions"
              "fish|cstudio.fish|${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d")
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 shell)
  list(GET parts 1 name)
  list(GET parts 2 destination)
  set(file ${completions_dir}/${shell}/${name})
  add_custom_command(OUTPUT ${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${completions_dir}/${shell}
    COMMAND ${CMAKE_COMMAND} -E env sh -c "\"$1\" completions ${shell} > \"$2\"" sh
            $<TARGET_FILE:cstudio> ${file}
    DEPENDS cstudio
    COMMENT "Generating the ${shell} completion for cstudio"
    VERBATIM)
  install(FILES ${file} DESTINATION ${destination})
  list(APPEND completion_files ${file})
endforeach()
add_custom_target(cs_completions ALL DEPENDS ${completion_files})
