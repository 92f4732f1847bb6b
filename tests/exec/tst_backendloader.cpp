// The backend registry's module loader (engine/exec/backendloader.h) on fake modules
// (fakebackend.cpp): it finds a module in the folders it is given, and refuses one with another
// interface version, other types, no entry point, another backend's name, a library it needs
// missing or no ELF at all, saying which file and why.

#include "exec/backendloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdlib>

using namespace cs;

namespace {

std::string fakeDir(const char* variant)
{
  return std::string(CS_FAKE_BACKEND_DIR) + "/" + variant;
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

} // namespace

class TestBackendLoader : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase() { QVERIFY(m_empty.isValid()); }

  void findsTheModuleInTheFirstFolderHoldingIt()
  {
    const LoadedBackend loaded =
        loadBackendModule("fake", {m_empty.path().toStdString(), fakeDir("good")});
    QVERIFY2(loaded.module, loaded.error.c_str());
    QVERIFY(loaded.found);
    QCOMPARE(loaded.path, fakeDir("good") + "/cs-backend-fake.so");
    std::string why;
    QCOMPARE(loaded.module->devices(&why), std::optional<int>(3));
    const std::unique_ptr<Executor> executor = loaded.module->create();
    QVERIFY(executor);
    QCOMPARE(executor->name(), std::string_view("fake"));
    QCOMPARE(executor->run(Program{}, ExecOptions{}).verification, std::string("fake backend"));
  }

  void saysWhereItLookedWhenMissing()
  {
    const std::string empty = m_empty.path().toStdString();
    const LoadedBackend loaded = loadBackendModule("fake", {empty});
    QVERIFY(!loaded.module);
    QVERIFY(!loaded.found);
    QVERIFY2(contains(loaded.error, "no module cs-backend-fake.so in " + empty),
             loaded.error.c_str());
    QVERIFY2(contains(loaded.error, kBackendPathVariable), loaded.error.c_str());
  }

  void refusesBrokenModules_data()
  {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("message");
    QTest::newRow("interface version")
        << "oldversion"
        << QString("has backend interface version %1, this program needs %2")
               .arg(kBackendInterfaceVersion - 1)
               .arg(kBackendInterfaceVersion);
    QTest::newRow("types") << "otherlayout"
                           << "was built from other Collective Studio sources";
    QTest::newRow("entry point") << "noentry"
                                 << "is not a Collective Studio backend module: it has no "
                                    "cstudio_backend_module function";
  }

  void refusesBrokenModules()
  {
    QFETCH(QString, variant);
    QFETCH(QString, message);
    const std::string dir = fakeDir(qPrintable(variant));
    const LoadedBackend loaded = loadBackendModule("fake", {dir});
    QVERIFY(!loaded.module);
    QVERIFY(loaded.found);
    QVERIFY2(contains(loaded.error, dir + "/cs-backend-fake.so " + message.toStdString()),
             loaded.error.c_str());
  }

  void refusesAnotherBackendsModule()
  {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QString::fromStdString(fakeDir("good") + "/cs-backend-fake.so"),
                        dir.filePath("cs-backend-cuda.so")));
    const LoadedBackend loaded = loadBackendModule("cuda", {dir.path().toStdString()});
    QVERIFY(!loaded.module);
    QVERIFY2(contains(loaded.error, "holds backend 'fake', not 'cuda'"), loaded.error.c_str());
  }

  void passesTheLoadersErrorOn()
  {
    QTemporaryDir dir;
    QFile junk(dir.filePath("cs-backend-fake.so"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("not an ELF file\n");
    junk.close();
    const LoadedBackend loaded = loadBackendModule("fake", {dir.path().toStdString()});
    QVERIFY(!loaded.module);
    QVERIFY(loaded.found);
    // dlerror() names the file and what is wrong with it.
    QVERIFY2(contains(loaded.error, junk.fileName().toStdString() +
                                        " cannot be loaded: " + junk.fileName().toStdString()),
             loaded.error.c_str());
  }

  void saysWhichLibraryIsMissing()
  {
    // As a real module on a machine without libcudart: the loader's own words name the library.
    const std::string dir = fakeDir("needsruntime");
    const LoadedBackend loaded = loadBackendModule("fake", {dir});
    QVERIFY(!loaded.module);
    QVERIFY(loaded.found);
    QVERIFY2(contains(loaded.error, dir + "/cs-backend-fake.so cannot be loaded: "),
             loaded.error.c_str());
    QVERIFY2(contains(loaded.error, "libcs-fake-runtime.so: cannot open shared object file"),
             loaded.error.c_str());
  }

  void searchFolders()
  {
    qputenv(kBackendPathVariable, "/first::/second");
    QCOMPARE(backendSearchDirs(), (std::vector<std::string>{"/first", "/second"}));
    qunsetenv(kBackendPathVariable);
    // Run from the build tree: next to the executable, the install folders, the build's own.
    const std::vector<std::string> dirs = backendSearchDirs();
    QVERIFY(dirs.size() >= 3);
    QCOMPARE(QString::fromStdString(dirs.front()),
             QCoreApplication::applicationDirPath() + "/backends");
    QVERIFY(std::any_of(dirs.begin(), dirs.end(), [](const std::string& dir) {
      return contains(dir, "/collective-studio/backends");
    }));
    QCOMPARE(dirs.back(), std::string(CS_BUILD_BACKEND_DIR));
  }

private:
  QTemporaryDir m_empty;
};

QTEST_GUILESS_MAIN(TestBackendLoader)
#include "tst_backendloader.moc"
