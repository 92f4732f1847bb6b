list(APPEND cs_editor_area_sources
  panels/problemsmodel.h panels/problemsmodel.cpp
  panels/problemspanel.h panels/problemspanel.cpp
  panels/inspectorpage.h panels/inspectorpage.cpp
  panels/documentinspector.h panels/documentinspector.cpp
  panels/transferinspector.h panels/transferinspector.cpp
  panels/topologyinspector.h panels/topologyinspector.cpp
  panels/instructioninspector.h panels/instructioninspector.cpp
  panels/inspectorpanel.h panels/inspectorpanel.cpp
  panels/problemtargets.h panels/problemtargets.cpp
  panels/gpuchoice.h panels/gpuchoice.cpp
)
