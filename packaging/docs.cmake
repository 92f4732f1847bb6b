# The documentation under share/doc/collective-studio: the README, the changelog, the guides with
# their pictures (the Help menu opens diagnostics.md from here), Debian's copyright file and the
# Debian changelog that a native package carries.

install(FILES
  ${PROJECT_SOURCE_DIR}/README.md
  ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  ${PROJECT_SOURCE_DIR}/docs/architecture.md
  ${PROJECT_SOURCE_DIR}/docs/diagnostics.md
  ${PROJECT_SOURCE_DIR}/docs/editor.md
  ${PROJECT_SOURCE_DIR}/docs/executors.md
  ${PROJECT_SOURCE_DIR}/docs/library.md
  ${PROJECT_SOURCE_DIR}/docs/simulator.md
  ${PROJECT_SOURCE_DIR}/docs/teaching.md
  ${PROJECT_SOURCE_DIR}/docs/why-slower-than-ring.md
  ${CMAKE_CURRENT_SOURCE_DIR}/copyright
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/images DESTINATION ${CMAKE_INSTALL_DOCDIR})

# One Debian changelog entry for this version, dated by the last commit (CStudioRelease.cmake);
# CHANGELOG.md beside it has the history.
configure_file(changelog.Debian.in ${CMAKE_CURRENT_BINARY_DIR}/changelog @ONLY)
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz
  COMMAND gzip -9nc changelog > changelog.gz
  DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/changelog
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
  COMMENT "Compressing the Debian changelog")
add_custom_target(cs_debian_changelog ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
