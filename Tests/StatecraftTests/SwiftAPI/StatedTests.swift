import Statecraft
import Synchronization
import TestSupport
import Testing

// MARK: Stated's README example, rewritten with Statecraft

protocol UpgradeService: Sendable {
    var isUpgradePending: Bool { get }
}

protocol APIService: Sendable {
    var canLogIn: Bool { get }
}

protocol PersistenceService: Sendable {
    func createSecondaryIndices(onCompletion: @escaping @Sendable () -> Void)
}

protocol RootViewController: Sendable {
    func showUpgradeProgressController(onCompletion: @escaping @Sendable () -> Void)
    func showLoggedInExperience(apiService: any APIService, db: any PersistenceService, onLogOut: @escaping @Sendable () -> Void)
    func showLogInViewController(onLoggedIn: @escaping @Sendable () -> Void)
}

final class AppLauncher: Sendable {
    enum State: MachineState {
        case uninitialized, initialized, upgrading, indexing, loggedIn, loggedOut
    }

    enum Inputs {
        static let initialize = Input("initialize")
        static let upgrade = Input("upgrade")
        static let indexDatabase = Input("indexDatabase")
        static let logIn = Input("logIn")
        static let logOut = Input("logOut")
    }

    let machine: TypedStateMachine<State, Void>

    init(upgradeService: any UpgradeService, apiService: any APIService, db: any PersistenceService, rootViewController: any RootViewController) {
        typealias SideEffect = @Sendable (inout TransitionStep<State, Void, Void>) -> Void

        let initialize: SideEffect = { step in
            step.send(upgradeService.isUpgradePending ? Inputs.upgrade : Inputs.indexDatabase)
        }
        let upgrade: SideEffect = { step in
            let machine = step.machine
            rootViewController.showUpgradeProgressController { machine.send(Inputs.indexDatabase) }
        }
        let indexDatabase: SideEffect = { step in
            let machine = step.machine
            db.createSecondaryIndices { machine.send(apiService.canLogIn ? Inputs.logIn : Inputs.logOut) }
        }
        let logIn: SideEffect = { step in
            let machine = step.machine
            rootViewController.showLoggedInExperience(apiService: apiService, db: db) { machine.send(Inputs.logOut) }
        }
        let logOut: SideEffect = { step in
            let machine = step.machine
            rootViewController.showLogInViewController { machine.send(Inputs.logIn) }
        }

        machine = TypedStateMachine(initial: .uninitialized) {
            /* Input             |        from     =>        to     | side effect */
            Inputs.initialize    | .uninitialized  => .initialized  | initialize
            Inputs.upgrade       | .initialized    => .upgrading    | upgrade
            Inputs.indexDatabase | .upgrading      => .indexing     | indexDatabase
            Inputs.indexDatabase | .initialized    => .indexing     | indexDatabase
            Inputs.logIn         | .indexing       => .loggedIn     | logIn
            Inputs.logIn         | .loggedOut      => .loggedIn     | logIn
            Inputs.logOut        | .indexing       => .loggedOut    | logOut
            Inputs.logOut        | .loggedIn       => .loggedOut    | logOut
        }
    }

    func initialize() {
        machine.send(Inputs.initialize)
    }
}

/// The same table in Stated's long form.
func longFormAppLauncherMachine(
    initialize: @escaping @Sendable (inout TransitionStep<AppLauncher.State, Void, Void>) -> Void
) -> TypedStateMachine<AppLauncher.State, Void> {
    typealias Inputs = AppLauncher.Inputs
    return TypedStateMachine(initial: .uninitialized) {
        Inputs.initialize.given(.uninitialized).transition(to: .initialized).performingSideEffect(initialize)
        Inputs.upgrade.given(.initialized).transition(to: .upgrading)
        Inputs.indexDatabase.given([.upgrading, .initialized]).transition(to: .indexing)
        Inputs.logIn.given([.indexing, .loggedOut]).transition(to: .loggedIn)
        Inputs.logOut.given([.indexing, .loggedIn]).transition(to: .loggedOut)
    }
}

/// Services answering as a test says; the screens call back when the test, playing the user,
/// says so (the upgrade and the indexing finish at once).
final class Services: UpgradeService, APIService, PersistenceService, RootViewController {
    let isUpgradePending: Bool
    let canLogIn: Bool
    let screens = Log<String>()
    private let userAction = Mutex<(@Sendable () -> Void)?>(nil)

    init(upgradePending: Bool, canLogIn: Bool) {
        isUpgradePending = upgradePending
        self.canLogIn = canLogIn
    }

    func createSecondaryIndices(onCompletion: @escaping @Sendable () -> Void) { onCompletion() }

    func showUpgradeProgressController(onCompletion: @escaping @Sendable () -> Void) {
        screens.append("upgrade progress")
        onCompletion()
    }

    func showLoggedInExperience(apiService: any APIService, db: any PersistenceService, onLogOut: @escaping @Sendable () -> Void) {
        screens.append("logged in")
        userAction.withLock { $0 = onLogOut }
    }

    func showLogInViewController(onLoggedIn: @escaping @Sendable () -> Void) {
        screens.append("log in")
        userAction.withLock { $0 = onLoggedIn }
    }

    /// The user logs out, or in, on the screen shown.
    func userActs() {
        userAction.withLock { $0 }?()
    }
}

// MARK: Stated's input arguments and mapped state, rewritten with Statecraft

struct Account: Sendable {
    let name: String
}

enum LaunchedFrom: Sendable {
    case fresh
    case url(String)
}

enum DeepLink: Sendable {
    case viewPost, friendRequest
}

/// States carrying data: `initialized` holds the deep link built from `initialize`'s argument,
/// and `loggedIn` the account from `logIn`'s argument with the deep link of the state before.
final class DeepLinkingAppLauncher: Sendable {
    enum State: MachineState {
        case uninitialized
        case initialized(deepLink: DeepLink?)
        case loggedIn(account: Account, deepLink: DeepLink?)
        case loggedOut

        enum Slot { case uninitialized, initialized, loggedIn, loggedOut }

        var slot: Slot {
            switch self {
            case .uninitialized: .uninitialized
            case .initialized: .initialized
            case .loggedIn: .loggedIn
            case .loggedOut: .loggedOut
            }
        }

        var deepLink: DeepLink? {
            switch self {
            case .initialized(let deepLink), .loggedIn(_, let deepLink): deepLink
            case .uninitialized, .loggedOut: nil
            }
        }
    }

    enum Inputs {
        static let initialize = Input("initialize", taking: LaunchedFrom.self)
        static let logIn = Input("logIn", taking: Account.self)
        static let logOut = Input("logOut")
    }

    let machine: TypedStateMachine<State, Void>

    init(logOutOnceLoggedIn: Bool, accountName: String) {
        machine = TypedStateMachine(initial: .uninitialized) {
            Inputs.initialize
                .given(.uninitialized)
                .transition(to: .initialized) { request in
                    switch request.argument {
                    case .fresh: .initialized(deepLink: nil)
                    case .url: .initialized(deepLink: .viewPost)
                    }
                }
                .performingSideEffect { $0.send(Inputs.logIn, Account(name: accountName)) }

            Inputs.logIn
                .given(.initialized)
                .transition(to: .loggedIn) { .loggedIn(account: $0.argument, deepLink: $0.from.deepLink) }
                .performingSideEffect { if logOutOnceLoggedIn { $0.send(Inputs.logOut) } }

            Inputs.logOut | .loggedIn => .loggedOut
        }
    }

    func initialize(from launchedFrom: LaunchedFrom) {
        machine.send(Inputs.initialize, launchedFrom)
    }
}

/// Stated's README example and its test scenarios.
struct StatedTests {
    typealias State = AppLauncher.State

    func launch(upgradePending: Bool, canLogIn: Bool) -> (AppLauncher, Services, visited: Log<State>) {
        let services = Services(upgradePending: upgradePending, canLogIn: canLogIn)
        let launcher = AppLauncher(upgradeService: services, apiService: services, db: services, rootViewController: services)
        let visited = Log<State>()
        let observation = launcher.machine.observeResults { result in
            if let transition = result.transition { visited.append(transition.to) }
        }
        launcher.initialize()
        withExtendedLifetime(observation) {}
        return (launcher, services, visited)
    }

    @Test func anUpgradeThenLogIn() {
        let (launcher, services, visited) = launch(upgradePending: true, canLogIn: true)
        #expect(visited.elements == [.initialized, .upgrading, .indexing, .loggedIn])
        #expect(services.screens.elements == ["upgrade progress", "logged in"])
        #expect(launcher.machine.state == .loggedIn)
    }

    @Test func anUpgradeThenTheLogInScreen() {
        let (launcher, services, visited) = launch(upgradePending: true, canLogIn: false)
        #expect(visited.elements == [.initialized, .upgrading, .indexing, .loggedOut])
        #expect(services.screens.elements == ["upgrade progress", "log in"])
        #expect(launcher.machine.state == .loggedOut)
    }

    @Test func noUpgradeThenLogIn() {
        let (launcher, services, visited) = launch(upgradePending: false, canLogIn: true)
        #expect(visited.elements == [.initialized, .indexing, .loggedIn])
        #expect(services.screens.elements == ["logged in"])
        #expect(launcher.machine.state == .loggedIn)
    }

    @Test func noUpgradeThenTheLogInScreen() {
        let (launcher, services, visited) = launch(upgradePending: false, canLogIn: false)
        #expect(visited.elements == [.initialized, .indexing, .loggedOut])
        #expect(services.screens.elements == ["log in"])
        #expect(launcher.machine.state == .loggedOut)
    }

    @Test func theUserLogsOutAndInLaterFromTheScreens() {
        let (launcher, services, _) = launch(upgradePending: false, canLogIn: true)
        services.userActs()
        #expect(launcher.machine.state == .loggedOut)
        services.userActs()
        #expect(launcher.machine.state == .loggedIn)
        #expect(services.screens.elements == ["logged in", "log in", "logged in"])
    }

    @Test func inputsSentByEffectsAreQueuedBehindTheTransitionThatSentThem() {
        let services = Services(upgradePending: false, canLogIn: true)
        let launcher = AppLauncher(upgradeService: services, apiService: services, db: services, rootViewController: services)
        let results = Log<String>()
        let observation = launcher.machine.observeResults { results.append("\($0.input.name) queued:\($0.input.isQueued)") }
        launcher.initialize()
        services.userActs()
        withExtendedLifetime(observation) {}
        #expect(
            results.elements == [
                "initialize queued:false", "indexDatabase queued:true", "logIn queued:true", "logOut queued:false",
            ])
    }

    @Test func theLongFormBuildsTheSameMachine() {
        let machine = longFormAppLauncherMachine { $0.send(AppLauncher.Inputs.indexDatabase) }
        let states = Log<State>()
        let observation = machine.observeStates { states.append($0) }
        machine.send(AppLauncher.Inputs.initialize)
        machine.send(AppLauncher.Inputs.logIn)
        withExtendedLifetime(observation) {}
        #expect(states.elements == [.uninitialized, .initialized, .indexing, .loggedIn])
    }

    @Test func anUnhandledInputIsAFailureNotACrash() {
        let (launcher, _, _) = launch(upgradePending: false, canLogIn: true)
        let result = launcher.machine.send(AppLauncher.Inputs.upgrade)
        #expect(result.error?.kind == .noTransition)
        #expect(result.error?.state == .loggedIn)
        #expect(launcher.machine.state == .loggedIn)
    }

    @Test func anUnhandledInputCanBeIgnoredByPolicy() {
        let machine = TypedStateMachine(initial: State.uninitialized, onUnhandled: .ignore) {
            AppLauncher.Inputs.initialize | .uninitialized => .initialized
        }
        let result = machine.send(AppLauncher.Inputs.logOut)
        #expect(result.transition?.isIgnored == true)
        #expect(result.transition?.from == .uninitialized)
        #expect(result.transition?.to == .uninitialized)
        #expect(machine.send(AppLauncher.Inputs.initialize).transition?.isIgnored == false)
    }

    // MARK: Input arguments and mapped state

    @Test func startsUninitialized() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: false, accountName: "")
        #expect(launcher.machine.state.slot == .uninitialized)
    }

    @Test func endsLoggedIn() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: false, accountName: "")
        launcher.initialize(from: .fresh)
        #expect(launcher.machine.state.slot == .loggedIn)
    }

    @Test func endsLoggedOutWhenLoggingOutOnceLoggedIn() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: true, accountName: "")
        launcher.initialize(from: .fresh)
        #expect(launcher.machine.state.slot == .loggedOut)
    }

    @Test func theLoggedInStateHoldsTheInputsArgument() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: false, accountName: "Testing name")
        launcher.initialize(from: .fresh)
        guard case .loggedIn(let account, let deepLink) = launcher.machine.state else {
            Issue.record("not logged in: \(launcher.machine.state)")
            return
        }
        #expect(account.name == "Testing name")
        #expect(deepLink == nil)
    }

    @Test func theLoggedInStateMapsTheDeepLinkOfTheStateBefore() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: false, accountName: "Another name")
        launcher.initialize(from: .url("app://post/1"))
        guard case .loggedIn(let account, let deepLink) = launcher.machine.state else {
            Issue.record("not logged in: \(launcher.machine.state)")
            return
        }
        #expect(account.name == "Another name")
        #expect(deepLink == .viewPost)
    }

    @Test func aRowBuildingAStateOutsideItsTargetSlotStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let machine = TypedStateMachine(initial: DeepLinkingAppLauncher.State.uninitialized) {
                DeepLinkingAppLauncher.Inputs.logOut.given(.uninitialized).transition(to: .loggedIn) { _ in .loggedOut }
            }
            machine.send(DeepLinkingAppLauncher.Inputs.logOut)
        }
    }

    @Test func resultsCarryTheStatesWithTheirData() {
        let launcher = DeepLinkingAppLauncher(logOutOnceLoggedIn: false, accountName: "Ada")
        let results = Log<StateTransitionResult<DeepLinkingAppLauncher.State>>()
        let observation = launcher.machine.observeResults { results.append($0) }
        launcher.initialize(from: .url("app://post/1"))
        withExtendedLifetime(observation) {}

        let transitions = results.elements.compactMap(\.transition)
        #expect(transitions.count == 2)
        #expect(transitions.last?.from.deepLink == .viewPost)
        #expect(transitions.last?.input.argument(of: DeepLinkingAppLauncher.Inputs.logIn)?.name == "Ada")
    }
}
