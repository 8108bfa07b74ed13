package dev.gantry.cli.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A Slurm report format split into its "%[.][width]type[suffix]" items, as squeue's and sprio's
 * {@code parse_format} split it (src/squeue/opts.c, src/sprio/opts.c): text before the first '%' is a prefix
 * printed as it is; each item runs from a '%' to the next; "%%" is not an escape (empty items are skipped). What a
 * type letter means, and what an unknown one does, is the caller's.
 *
 * @param prefix the text before the first '%' (the whole format when it has none); null when it starts with '%'
 * @param items the items in order
 */
public record FormatItems(String prefix, List<Spec> items) {

    public FormatItems {
        items = List.copyOf(items);
    }

    /** A report's field as a format names it by one letter. */
    public interface Type {
        /** The letter after '%' and the width. */
        char code();
    }

    /**
     * One item: {@code %} then {@code text}.
     *
     * @param text the item without its '%', never empty
     * @param column right-justified after '.', of the width its digits give (0: as wide as needed)
     * @param typeAt where the type letter stands in {@code text}; {@code text.length()} when the item has none
     */
    public record Spec(String text, Column column, int typeAt) {

        /** Whether a type letter follows the width. */
        public boolean hasType() {
            return typeAt < text.length();
        }

        /** The type letter; only when {@link #hasType()}. */
        public char type() {
            return text.charAt(typeAt);
        }

        /** Which of {@code types} the type letter names; null when none does or the item has no letter. */
        public <T extends Type> T typeOf(T[] types) {
            if (hasType()) {
                for (T t : types) {
                    if (t.code() == type()) {
                        return t;
                    }
                }
            }
            return null;
        }

        /** The text after the type letter, up to the next '%'. */
        public String suffix() {
            return text.substring(typeAt + 1);
        }
    }

    /**
     * Splits {@code format}; a width stops taking digits once it reaches {@code widthCap} (the rest of the digits
     * then stand where the type letter would), as the commands' own loops do.
     */
    public static FormatItems parse(String format, int widthCap) {
        int first = format.indexOf('%');
        String prefix = first == 0 ? null : first < 0 ? format : format.substring(0, first);
        List<Spec> items = new ArrayList<>();
        if (first >= 0) {
            for (String token : format.substring(first).split("%")) {
                if (!token.isEmpty()) {
                    items.add(spec(token, widthCap));
                }
            }
        }
        return new FormatItems(prefix, items);
    }

    private static Spec spec(String token, int widthCap) {
        int i = 0;
        boolean right = token.charAt(0) == '.';
        if (right) {
            i++;
        }
        int width = 0;
        while (i < token.length() && Character.isDigit(token.charAt(i)) && width < widthCap) {
            width = width * 10 + (token.charAt(i++) - '0');
        }
        return new Spec(token, new Column(width, right), i);
    }
}
