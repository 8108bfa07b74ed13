package dev.gantry.cli.sbatch;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch script's text and the {@code #SBATCH} directives in it, read as sbatch reads them
 * (https://slurm.schedmd.com/sbatch.html#lbAH): lines starting with "#SBATCH" contribute options until the
 * first line that is neither blank nor a comment. Arguments split on white space; single and double
 * quotes group, a backslash escapes the next character, and an unquoted '#' starts a comment.
 *
 * @param text the whole script
 */
public record BatchScript(String text) {

    /** The magic word that starts a directive line. */
    public static final String DIRECTIVE = "#SBATCH";

    /** The script sbatch --wrap=CMD submits. */
    public static BatchScript wrap(String command) {
        return new BatchScript("#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + command + "\n");
    }

    /**
     * The problems sbatch refuses a script for, as its error lines; empty when the script is acceptable.
     * Checked in sbatch's order: empty, only white space, no "#!", NUL character, DOS line breaks.
     */
    public List<String> problems() {
        if (text.isEmpty()) {
            return List.of("Batch script is empty!");
        }
        if (text.isBlank()) {
            return List.of("Batch script contains only whitespace!");
        }
        if (!text.startsWith("#!")) {
            return List.of("This does not look like a batch script.  The first",
                    "line must start with #! followed by the path to an interpreter.",
                    "For instance: #!/bin/sh");
        }
        if (text.indexOf('\0') >= 0) {
            return List.of("The Gantry controller does not allow scripts that", "contain a NULL character '\\0'.");
        }
        if (text.contains("\r\n")) {
            return List.of("Batch script contains DOS line breaks (\\r\\n)",
                    "instead of expected UNIX line breaks (\\n).");
        }
        return List.of();
    }

    /** The directive arguments, in script order, as one flat argument list (as sbatch hands them to getopt). */
    public List<String> directiveArguments() {
        List<String> args = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith(DIRECTIVE)) {
                args.addAll(arguments(line.substring(DIRECTIVE.length())));
            } else if (isCommand(line)) {
                break;
            }
        }
        return args;
    }

    private static boolean isCommand(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                continue;
            }
            return c != '#';
        }
        return false;
    }

    /** Splits the rest of a directive line into arguments (sbatch's {@code _get_argument}). */
    static List<String> arguments(String rest) {
        List<String> args = new ArrayList<>();
        int i = 0;
        int n = rest.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(rest.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            StringBuilder arg = new StringBuilder();
            char quote = 0;
            boolean comment = false;
            while (i < n && (quote != 0 || !Character.isWhitespace(rest.charAt(i)))) {
                char c = rest.charAt(i);
                if (c == '\\' && i + 1 < n) {
                    arg.append(rest.charAt(i + 1));
                    i += 2;
                    continue;
                }
                if (quote != 0) {
                    if (c == quote) {
                        quote = 0;
                    } else {
                        arg.append(c);
                    }
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '#') {
                    comment = true;
                    break;
                } else {
                    arg.append(c);
                }
                i++;
            }
            if (!arg.isEmpty()) {
                args.add(arg.toString());
            }
            if (comment) {
                break;
            }
        }
        return args;
    }
}
