package dev.gantry.common.config;

import java.util.List;

/**
 * A key's value made of sub-options (SchedulerParameters=, SlurmctldParameters=): the items it accepted without using
 * them. The config parser turns each into a warning {@code file:line: key: note}, so a misspelt option is not silently
 * ignored.
 */
interface SubOptions {

    /** One note per accepted-but-unused item, saying why, e.g. "'bf_windw' is not an option Gantry knows; ignored". */
    List<String> ignored();
}
