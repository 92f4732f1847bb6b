#include "autosave.h"

#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"
#include "model/dialect.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace cs::editor {

namespace {

constexpr const char* kFormat = "collective-studio-autosave";
constexpr int kVersion = 1;
constexpr const char* kSuffix = ".autosave.json";

QString lockPathFor(const QString& filePath)
{
  QString path = filePath;
  path.chop(static_cast<int>(qstrlen(kSuffix)));
  return path + QStringLiteral(".autosave.lock");
}

/// Numbers the Autosave instances of this process so that each has its own file.
int nextInstanceNumber()
{
  static int instances = 0;
  return ++instances;
}

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QJsonObject originJson(const DocumentOrigin& origin)
{
  return {{"filePath", origin.filePath},
          {"libraryName", origin.libraryName},
          {"libraryVersion", origin.libraryVersion}};
}

QJsonObject loweringJson(const LowerOptions& lowering)
{
  return {{"dialect", toQString(dialect(lowering.dialect).key)},
          {"protocol", toQString(protocolName(lowering.protocol))},
          {"instances", lowering.instances}};
}

/// The file's contents, or the reason it cannot be used.
std::optional<QJsonObject> readObject(const QString& path, QString* error)
{
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error)
      *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
    return std::nullopt;
  }
  QJsonParseError parseError;
  const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &parseError);
  if (!json.isObject() || json.object().value("format").toString() != kFormat) {
    if (error)
      *error = QObject::tr("%1 is not an autosave file: %2")
                   .arg(QFileInfo(path).fileName(), parseError.error != QJsonParseError::NoError
                                                        ? parseError.errorString()
                                                        : QObject::tr("wrong format"));
    return std::nullopt;
  }
  return json.object();
}

} // namespace

QString Autosave::defaultDirectory()
{
  const QString overridden = qEnvironmentVariable("CSTUDIO_AUTOSAVE_DIR");
  if (!overridden.isEmpty())
    return overridden;
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
         QStringLiteral("/autosave");
}

Autosave::Autosave(Document* document, const QString& directory, QObject* parent)
    : QObject(parent), m_document(document), m_directory(directory)
{
  const int instance = nextInstanceNumber();
  QString stem = QString::number(QCoreApplication::applicationPid());
  if (instance > 1)
    stem += QLatin1Char('-') + QString::number(instance);
  m_filePath = QDir(m_directory).filePath(stem + QLatin1String(kSuffix));

  m_debounce.setSingleShot(true);
  m_debounce.setInterval(2000);
  m_period.setInterval(30000);
  connect(&m_debounce, &QTimer::timeout, this, &Autosave::timerFired);
  connect(&m_period, &QTimer::timeout, this, &Autosave::timerFired);
  connect(document, &Document::changed, this, &Autosave::documentChanged);
  connect(document, &Document::modifiedChanged, this, &Autosave::modifiedChanged);
  if (document->isModified())
    modifiedChanged(true);
}

Autosave::~Autosave() = default;

bool Autosave::hasFile() const
{
  return QFileInfo::exists(m_filePath);
}

void Autosave::setIntervals(int debounceMs, int periodMs)
{
  m_debounce.setInterval(debounceMs);
  m_period.setInterval(periodMs);
}

void Autosave::documentChanged()
{
  if (!m_document->isModified())
    return;
  m_dirty = true;
  m_debounce.start();
}

void Autosave::modifiedChanged(bool modified)
{
  if (modified) {
    m_dirty = true;
    m_debounce.start();
    m_period.start();
    return;
  }
  // Clean again (saved, discarded, undone to the saved state): nothing is left to recover.
  m_debounce.stop();
  m_period.stop();
  m_dirty = false;
  removeFile();
}

void Autosave::timerFired()
{
  if (m_dirty)
    write();
}

QString Autosave::saveNow()
{
  if (!m_document->isModified())
    return {};
  return write();
}

QString Autosave::write()
{
  QString error;
  if (!QDir().mkpath(m_directory)) {
    error = tr("Cannot create the autosave folder %1").arg(m_directory);
  } else {
    if (!m_lock) {
      // The lock goes first: a file without a held lock would look like a crashed instance's.
      m_lock = std::make_unique<QLockFile>(lockPathFor(m_filePath));
      m_lock->setStaleLockTime(0);
      if (!m_lock->tryLock(0))
        error = tr("Cannot lock %1").arg(m_lock->fileName());
    }
    if (error.isEmpty()) {
      const DocumentState& state = m_document->state();
      QJsonObject object{{"format", kFormat},
                         {"version", kVersion},
                         {"pid", QCoreApplication::applicationPid()},
                         {"savedAt", QDateTime::currentDateTime().toString(Qt::ISODate)},
                         {"name", m_document->displayName()},
                         {"origin", originJson(m_document->origin())},
                         {"lowering", loweringJson(state.lowering)}};
      const std::string design = writeDesignDocument(state.design);
      object.insert("design", QJsonDocument::fromJson(QByteArray::fromStdString(design)).object());
      if (state.program) {
        const DialectId written = detectDialect(*state.program);
        object.insert("programDialect", toQString(dialect(written).key));
        object.insert("programXml",
                      QString::fromStdString(writeMscclXml(*state.program, {written}).text));
      }
      QSaveFile file(m_filePath);
      if (!file.open(QIODevice::WriteOnly) ||
          file.write(QJsonDocument(object).toJson(QJsonDocument::Compact)) < 0 || !file.commit())
        error = tr("Cannot write %1: %2").arg(m_filePath, file.errorString());
    }
  }
  if (error.isEmpty())
    m_dirty = false;
  emit saved(error);
  return error;
}

void Autosave::removeFile()
{
  QFile::remove(m_filePath);
  m_lock.reset(); // unlocks, which deletes the lock file
}

QList<RecoverableDocument> Autosave::findRecoverable(const QString& directory)
{
  QList<RecoverableDocument> found;
  const QDir dir(directory);
  const QStringList names =
      dir.entryList({QStringLiteral("*") + QLatin1String(kSuffix)}, QDir::Files);
  for (const QString& name : names) {
    const QString path = dir.filePath(name);
    QLockFile lock(lockPathFor(path));
    lock.setStaleLockTime(0);
    // Succeeds only when no live process holds the lock: its owner crashed or was killed.
    if (!lock.tryLock(0))
      continue;
    lock.unlock();
    const std::optional<QJsonObject> object = readObject(path, nullptr);
    RecoverableDocument document;
    document.path = path;
    document.pid = object ? object->value("pid").toInteger() : 0;
    document.name = object ? object->value("name").toString() : name;
    document.savedAt = object
                           ? QDateTime::fromString(object->value("savedAt").toString(), Qt::ISODate)
                           : QFileInfo(path).lastModified();
    if (!document.savedAt.isValid())
      document.savedAt = QFileInfo(path).lastModified();
    found.append(document);
  }
  std::sort(found.begin(), found.end(),
            [](const RecoverableDocument& a, const RecoverableDocument& b) {
              return a.savedAt > b.savedAt;
            });
  return found;
}

std::optional<RecoveredDocument> Autosave::loadRecoveryFile(const QString& path, QString* error)
{
  const std::optional<QJsonObject> object = readObject(path, error);
  if (!object)
    return std::nullopt;
  const auto fail = [&](const QString& why) -> std::optional<RecoveredDocument> {
    if (error)
      *error = tr("%1 cannot be recovered: %2").arg(QFileInfo(path).fileName(), why);
    return std::nullopt;
  };
  if (object->value("version").toInt() > kVersion)
    return fail(tr("written by a newer version (%1)").arg(object->value("version").toInt()));

  RecoveredDocument recovered;
  const QByteArray designJson = QJsonDocument(object->value("design").toObject()).toJson();
  DesignReadResult design = readDesignDocument(designJson.toStdString());
  if (!design.document)
    return fail(design.diagnostics.empty() ? tr("no design")
                                           : QString::fromStdString(design.diagnostics[0].message));
  recovered.state.design = std::move(*design.document);

  if (object->contains("programXml")) {
    const std::string xml = object->value("programXml").toString().toStdString();
    ReadResult program = readMscclXml(xml);
    if (!program.program)
      return fail(tr("its MSCCL XML is unreadable"));
    recovered.state.program = std::move(program.program);
  }

  const QJsonObject lowering = object->value("lowering").toObject();
  if (const auto id = parseDialect(lowering.value("dialect").toString().toStdString()))
    recovered.state.lowering.dialect = *id;
  if (const auto protocol = parseProtocol(lowering.value("protocol").toString().toStdString()))
    recovered.state.lowering.protocol = *protocol;
  recovered.state.lowering.instances = std::max(1, lowering.value("instances").toInt(1));
  recovered.state.lowering.gpu = recovered.state.design.gpu; // the design carries the GPU

  const QJsonObject origin = object->value("origin").toObject();
  recovered.origin.filePath = origin.value("filePath").toString();
  recovered.origin.libraryName = origin.value("libraryName").toString();
  recovered.origin.libraryVersion = origin.value("libraryVersion").toInt();
  return recovered;
}

void Autosave::discardRecoveryFile(const QString& path)
{
  QLockFile lock(lockPathFor(path));
  lock.setStaleLockTime(0);
  // Only a dead instance's file: a live one still holds its lock and keeps its file.
  if (!lock.tryLock(0))
    return;
  QFile::remove(path);
  lock.unlock();
}

} // namespace cs::editor
