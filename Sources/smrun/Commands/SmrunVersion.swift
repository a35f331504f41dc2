/// smrun's version, the one place it is set: `smrun --version` prints it, and the man page
/// (`make man`) carries it.
enum SmrunVersion {
    static let current = "0.1.0"
}
