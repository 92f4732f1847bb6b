# The gallery's examples (issue 19 item 7): every catalogue algorithm as a design document drawn
# on a topology that routes all its exchanges, written by the just-built cstudio at build time
# (never copied from anywhere) and installed under share/collective-studio/gallery. A teacher
# opens one from there, or gives it to students. tst_generatecommand checks that the list covers
# the whole catalogue and that each document reads back with its topology.

if(CSTUDIO_SANITIZE OR CSTUDIO_FUZZ)
  return() # as packaging/: no programs run at build time in tests-only builds
endif()

set(CSTUDIO_GALLERY_DIR ${CMAKE_CURRENT_BINARY_DIR}/gallery)
# "catalogue key|ranks|topology preset[|more generate arguments]"
set(CSTUDIO_GALLERY
  "ring-allreduce|8|ring-8"
  "ring-allgather|8|ring-8"
  "ring-reducescatter|8|ring-8"
  "halving-doubling-allreduce|8|dgx-h100"
  "double-binary-tree-allreduce|8|dgx-h100"
  "binomial-broadcast|8|dgx-h100"
  "binomial-reduce|8|dgx-h100"
  "chain-broadcast|8|ring-8"
  "hierarchical-ring-allreduce|16|2x-dgx-h100|--group 8"
  "hierarchical-tree-allreduce|16|2x-dgx-h100|--group 8"
  "torus2d-allreduce|8|torus-2x4"
  "direct-alltoall|8|dgx-h100"
  "two-step-alltoall|16|2x-dgx-h100|--group 8"
  "bruck-allgather|8|dgx-h100"
  "bruck-alltoall|8|dgx-h100")

set(gallery_files)
foreach(entry IN LISTS CSTUDIO_GALLERY)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 key)
  list(GET parts 1 ranks)
  list(GET parts 2 topology)
  set(more)
  list(LENGTH parts count)
  if(count GREATER 3)
    list(GET parts 3 more)
    separate_arguments(more UNIX_COMMAND "${more}")
  endif()
  set(file ${CSTUDIO_GALLERY_DIR}/${key}-${ranks}.csdesign.json)
  add_custom_command(OUTPUT ${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CSTUDIO_GALLERY_DIR}
    COMMAND cstudio generate ${key} --ranks ${ranks} ${more} --topology ${topology} -o ${file}
    DEPENDS cstudio
    COMMENT "Generating the gallery example ${key}-${ranks}"
    VERBATIM)
  list(APPEND gallery_files ${file})
endforeach()
add_custom_target(cs_gallery_examples ALL DEPENDS ${gallery_files})
install(FILES ${gallery_files} DESTINATION ${CMAKE_INSTALL_DATADIR}/collective-studio/gallery)
set(CSTUDIO_GALLERY_DIR ${CSTUDIO_GALLERY_DIR} PARENT_SCOPE)
