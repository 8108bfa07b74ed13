package dev.gantry.cli.getopt;

import java.util.ArrayList;
import java.util.List;

/**
 * A parser with glibc getopt_long's behaviour, which Slurm's commands use: short options cluster ("-hl") and
 * take attached or separate arguments ("-N2", "-N 2"); long options take "=value" or a separate argument
 * and may be abbreviated to any unambiguous prefix ("--part=debug"); "--" ends the options; an argument that
 * an option requires is taken whatever it looks like ("-n -1"). Non-option arguments are set aside and
 * parsing goes on (GNU permutation), unless {@code stopAtOperand} is set (sbatch's "+" mode: the script and
 * everything after it are operands). Errors carry glibc's wording.
 *
 * @param specs the options accepted
 * @param stopAtOperand stop at the first non-option argument
 */
public record Getopt(List<OptionSpec> specs, boolean stopAtOperand) {

    public Getopt {
        specs = List.copyOf(specs);
    }

    /**
     * Parses {@code args}.
     *
     * @throws UsageException with getopt's message for an unknown, ambiguous or incomplete option
     */
    public ParsedArguments parse(List<String> args) throws UsageException {
        List<ParsedArguments.Occurrence> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                operands.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (arg.startsWith("--")) {
                i = longOption(args, i, options);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                i = shortOptions(args, i, options);
            } else if (stopAtOperand) {
                operands.addAll(args.subList(i, args.size()));
                break;
            } else {
                operands.add(arg);
                i++;
            }
        }
        return new ParsedArguments(options, operands);
    }

    private int longOption(List<String> args, int i, List<ParsedArguments.Occurrence> out) throws UsageException {
        String arg = args.get(i);
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        String attached = eq < 0 ? null : arg.substring(eq + 1);
        Match match = findLong(name, arg);
        OptionSpec spec = match.spec();
        String shown = "--" + match.name();
        switch (spec.argument()) {
            case NONE -> {
                if (attached != null) {
                    throw new UsageException("option '" + shown + "' doesn't allow an argument");
                }
                out.add(new ParsedArguments.Occurrence(spec.key(), null));
                return i + 1;
            }
            case OPTIONAL -> {
                out.add(new ParsedArguments.Occurrence(spec.key(), attached));
                return i + 1;
            }
            case REQUIRED -> {
                return required(spec, attached, args, i, out, "option '" + shown + "' requires an argument");
            }
        }
        throw new IllegalStateException();
    }

    /**
     * An option's required argument: the one attached to it ({@code --name=value}, {@code -xvalue}), else the next
     * word. Returns the index of the word after those used.
     *
     * @param missing the message when there is neither
     */
    private static int required(OptionSpec spec, String attached, List<String> args, int i,
            List<ParsedArguments.Occurrence> out, String missing) throws UsageException {
        if (attached != null) {
            out.add(new ParsedArguments.Occurrence(spec.key(), attached));
            return i + 1;
        }
        if (i + 1 >= args.size()) {
            throw new UsageException(missing);
        }
        out.add(new ParsedArguments.Occurrence(spec.key(), args.get(i + 1)));
        return i + 2;
    }

    private record Match(OptionSpec spec, String name) {}

    /** Exact long name, else the one option whose long name starts with {@code name}. */
    private Match findLong(String name, String arg) throws UsageException {
        List<Match> prefixed = new ArrayList<>();
        for (OptionSpec spec : specs) {
            for (String longName : spec.longNames()) {
                if (longName.equals(name)) {
                    return new Match(spec, longName);
                }
                if (!name.isEmpty() && longName.startsWith(name)) {
                    prefixed.add(new Match(spec, longName));
                }
            }
        }
        if (prefixed.isEmpty()) {
            throw new UsageException("unrecognized option '" + arg + "'");
        }
        boolean oneOption = prefixed.stream().allMatch(m -> m.spec() == prefixed.get(0).spec());
        if (!oneOption) {
            StringBuilder message = new StringBuilder("option '--" + name + "' is ambiguous; possibilities:");
            prefixed.forEach(m -> message.append(" '--").append(m.name()).append('\''));
            throw new UsageException(message.toString());
        }
        return prefixed.get(0);
    }

    private int shortOptions(List<String> args, int i, List<ParsedArguments.Occurrence> out) throws UsageException {
        String arg = args.get(i);
        for (int p = 1; p < arg.length(); p++) {
            char c = arg.charAt(p);
            OptionSpec spec = findShort(c);
            if (spec == null) {
                throw new UsageException("invalid option -- '" + c + "'");
            }
            String rest = arg.substring(p + 1);
            switch (spec.argument()) {
                case NONE -> out.add(new ParsedArguments.Occurrence(spec.key(), null));
                case OPTIONAL -> {
                    out.add(new ParsedArguments.Occurrence(spec.key(), rest.isEmpty() ? null : rest));
                    return i + 1;
                }
                case REQUIRED -> {
                    return required(spec, rest.isEmpty() ? null : rest, args, i, out,
                            "option requires an argument -- '" + c + "'");
                }
            }
        }
        return i + 1;
    }

    private OptionSpec findShort(char c) {
        for (OptionSpec spec : specs) {
            if (spec.shortName() == c && c != 0) {
                return spec;
            }
        }
        return null;
    }
}
