"""Statistics that say how a simulation ran, not what it simulated: the
memories' DMI grant counts, the harts' skipped wait-loop iterations and
quanta, and their runs on beside spinning harts. The pins and the equivalence tests (the same
results whatever DMI, the host threads, the wait-loop skips or run-ahead)
leave them out of their comparisons; the one
list of them is here."""
HOW_IT_RAN = (".dmi_grants", ".wait_loop_skips", ".wait_loop_iterations_skipped",
              ".runs_on_beside_spinning", ".wait_loop_quanta_passed")


def says_how_it_ran(name):
    return name.endswith(HOW_IT_RAN)


def statistic_differences(a, b):
    """'name: x != y' for each statistic of two manifests' "statistics" that differs, but those of HOW_IT_RAN."""
    return ["%s: %s != %s" % (k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
            if not says_how_it_ran(k) and a.get(k) != b.get(k)]
