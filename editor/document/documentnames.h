#pragma once

// The algorithm's one name: the Name field, the MSCCL XML's `name`, the design file's base name
// after Save As and the library's name after Save to Library are the same string. Renaming is an
// ordinary undoable edit of the source (the Schedule or an imported Program).

#include <QString>

#include <string>

namespace cs::editor {

class Document;
struct DocumentState;

/// The name of the source: the imported Program's when it is the source, else the Schedule's.
std::string documentName(const DocumentState& state);

/// Whether the user typed the current name: it is not the placeholder ("untitled" or empty) and
/// differs from the one the document came with (Document::givenName).
bool nameWasTyped(const Document& document);

/// Renames the source to `name` as one undo step titled `text`, and makes `name` the given name
/// (a later Save As may rename it again). Nothing happens when the name is already `name`.
void renameDocument(Document& document, const std::string& name, const QString& text);

} // namespace cs::editor
