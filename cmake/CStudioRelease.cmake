# The date of this version, for the Debian changelog and the AppStream release: the last commit's
# (not the build's, so two builds of one commit make the same files), or today's outside git.
#   CSTUDIO_RELEASE_DATE          2026-11-26
#   CSTUDIO_RELEASE_DATE_RFC2822  Thu, 26 Nov 2026 15:44:02 +0000

execute_process(COMMAND git log -1 --format=%cd --date=format:%Y-%m-%d
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE CSTUDIO_RELEASE_DATE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git log -1 --format=%cD
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE CSTUDIO_RELEASE_DATE_RFC2822 OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT CSTUDIO_RELEASE_DATE OR NOT CSTUDIO_RELEASE_DATE_RFC2822)
  string(TIMESTAMP CSTUDIO_RELEASE_DATE "%Y-%m-%d" UTC)
  string(TIMESTAMP CSTUDIO_RELEASE_DATE_RFC2822 "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
