# The Help menu shows docs/diagnostics.md; a build run from the source tree finds it here.
target_compile_definitions(cs_editor PRIVATE CSTUDIO_DOCS_DIR="${PROJECT_SOURCE_DIR}/docs")
