# Baseline: the self-driving car (machines/self-driving-car.yaml) in awk, for mawk and gawk.
#
# Reads an input script, one `INPUT` or `INPUT ARG` a line, and prints smrun's text
# output for each line. String arguments stay in their JSON form, undecoded
# (gen_script.py writes none with escapes).
#
# Run: mawk -f car.awk < script   (or gawk)

BEGIN {
    # Input name -> kind of argument: "" (none), "int" or "string".
    split("startEngine driveAround park pickUpPassengers dropOffPassengers noMapInput noFailInput", plain, " ")
    for (i in plain) arg_kind[plain[i]] = ""
    arg_kind["passengersHaveEntered"] = "int"
    arg_kind["driveToLocation"] = "string"

    # next_state[state, input] for each transition; effects[state, input] names the effect
    # of those that have one (none here has more).
    next_state["unstarted", "startEngine"] = "parked"
    next_state["parked", "driveAround"] = "drivingAround"
    next_state["droppingOffPassengers", "driveAround"] = "drivingAround"
    next_state["drivingAround", "park"] = "parked"
    next_state["drivingToLocation", "park"] = "parked"
    next_state["parked", "pickUpPassengers"] = "pickingUpPassengers"
    next_state["pickingUpPassengers", "passengersHaveEntered"] = "pickingUpPassengers"
    effects["pickingUpPassengers", "passengersHaveEntered"] = "pickedUpPassengers"
    next_state["pickingUpPassengers", "driveToLocation"] = "drivingToLocation"
    effects["pickingUpPassengers", "driveToLocation"] = "driveToLocation"
    next_state["parked", "dropOffPassengers"] = "droppingOffPassengers"
    effects["parked", "dropOffPassengers"] = "dropOffPassengers"
    split("unstarted drivingAround drivingToLocation parked pickingUpPassengers droppingOffPassengers", states, " ")
    for (i in states) next_state[states[i], "noFailInput"] = states[i]

    state = "unstarted"
    passengers = 0
    location = ""
}

function fail(message) {
    printf "car.awk: line %d: %s\n", NR, message > "/dev/stderr"
    exit 1
}

{
    name = $1
    if (!(name in arg_kind)) fail("unknown input")
    kind = arg_kind[name]
    arg = substr($0, length(name) + 2)
    if (kind == "") {
        if (arg != "") fail("input takes no argument")
        label = name
    } else if (kind == "int") {
        if (arg !~ /^-?[0-9]+$/) fail("bad int argument")
        arg += 0
        label = name " " arg
    } else {
        if (arg !~ /^".*"$/) fail("bad string argument")
        label = name " " arg
    }

    key = state SUBSEP name
    if (!(key in next_state)) {
        print "line " NR ": " label ": " state ": rejected: no-transition: no transition for '" name "' from '" state "'"
        next
    }
    target = next_state[key]
    if (key in effects) {
        effect = effects[key]
        if (effect == "pickedUpPassengers") passengers = arg
        else if (effect == "driveToLocation") location = arg
        else passengers = 0
        print label ": " state " -> " target " / " effect
    } else {
        print label ": " state " -> " target
    }
    state = target
}
