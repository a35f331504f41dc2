// The statechart benchmark's Qt 6 SCXML baseline: loads an SCXML document with
// QScxmlStateMachine::fromFile and submits one event per line of standard input, each followed
// by processEvents (run to completion), headless.
//
//   qt_scxml MACHINE.scxml          prints the active atomic states after each input, sorted
//                                   and joined by spaces (what the bench compares and times)
//   qt_scxml -t MACHINE.scxml       prints nothing per input; prints the seconds the inputs took
//                                   (loading excluded) and the input count
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScxmlStateMachine>
#include <QStringList>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    bool timing = argc > 1 && std::strcmp(argv[1], "-t") == 0;
    if (argc != (timing ? 3 : 2)) {
        std::fprintf(stderr, "usage: qt_scxml [-t] MACHINE.scxml < INPUTS\n");
        return 2;
    }
    QCoreApplication app(argc, argv);
    QScxmlStateMachine *machine = QScxmlStateMachine::fromFile(QString::fromLocal8Bit(argv[timing ? 2 : 1]));
    if (!machine || !machine->parseErrors().isEmpty()) {
        for (const auto &error : machine ? machine->parseErrors() : QList<QScxmlError>())
            std::fprintf(stderr, "qt_scxml: %s\n", qPrintable(error.toString()));
        return 2;
    }
    machine->start();
    app.processEvents();

    // Read every input first, so that reading is not timed.
    std::vector<QString> inputs;
    char line[256];
    while (std::fgets(line, sizeof line, stdin)) {
        size_t length = std::strcspn(line, "\r\n");
        inputs.push_back(QString::fromLatin1(line, static_cast<qsizetype>(length)));
    }

    QElapsedTimer timer;
    timer.start();
    std::string out;
    for (const QString &input : inputs) {
        machine->submitEvent(input);
        app.processEvents();
        if (!timing) {
            QStringList active = machine->activeStateNames(true);
            active.sort();
            out += active.join(' ').toStdString();
            out += '\n';
            if (out.size() > (1 << 16)) {
                std::fwrite(out.data(), 1, out.size(), stdout);
                out.clear();
            }
        }
    }
    qint64 elapsed = timer.nsecsElapsed();
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (timing) std::printf("%.6f %zu\n", elapsed / 1e9, inputs.size());
    return 0;
}
