package dev.gantry.cli.command;

import dev.gantry.api.v1.CreateTokenRequest;
import dev.gantry.api.v1.CreateTokenResponse;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Locale;

/**
 * {@code scontrol token [lifespan=SECONDS] [username=USER]}: prints {@code SLURM_JWT=<token>}, a JSON web token the
 * controller issued (AuthAltTypes=auth/jwt), for the caller or, for an administrator, any user, as Slurm's does. Unlike
 * Slurm, a lifespan that is not a number of seconds is refused (Slurm quietly uses its default).
 */
final class ScontrolToken {

    private final CliContext context;

    ScontrolToken(CliContext context) {
        this.context = context;
    }

    /** @param words the operands after {@code token} */
    int run(ControllerSession session, List<String> words) {
        CreateTokenRequest.Builder request = CreateTokenRequest.newBuilder();
        for (String word : words) {
            int eq = word.indexOf('=');
            String key = eq < 0 ? word : word.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : word.substring(eq + 1);
            switch (key) {
                case "lifespan" -> {
                    try {
                        request.setLifespanSeconds(Long.parseLong(value));
                    } catch (NumberFormatException e) {
                        return fail("Invalid lifespan value: " + value + " (seconds expected)");
                    }
                }
                case "username" -> request.setUsername(value);
                default -> {
                    return fail("Invalid parameter for token: " + word);
                }
            }
        }
        CreateTokenResponse token;
        try {
            token = session.stub().createToken(request.build());
        } catch (StatusRuntimeException e) {
            context.err().println("scontrol: error: slurm_fetch_token: " + ControllerFailure.describe(e));
            context.err().println("Error fetching token");
            return 1;
        }
        context.out().println("SLURM_JWT=" + token.getToken());
        return 0;
    }

    private int fail(String message) {
        context.err().println("scontrol: error: " + message);
        return 1;
    }
}
