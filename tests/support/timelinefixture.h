#pragma once

// A TimelineView on its own Document, shown at 1400×900 like the main window's: the timeline's
// GUI tests drive it with the mouse and keyboard and read the Document back.

#include "document/document.h"
#include "timeline/timelineview.h"

namespace cs::test {

class TimelineFixture
{
public:
  explicit TimelineFixture(editor::DocumentState state) : view(&document)
  {
    document.reset(std::move(state), {});
    view.resize(1400, 900);
    view.show();
  }
  editor::Document document;
  editor::TimelineView view;
};

} // namespace cs::test
