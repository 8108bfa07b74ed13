/**
 * Files that hold what other local users must not read or change: the local cluster's state directory (0700),
 * secrets (0600, written whole), directories whose every ancestor only root or this user can write (where programs
 * run as root come from), and removal of trees that other users own parts of without following their links.
 *
 * <p>Adapters only (file system calls); nothing here decides scheduling. See docs/security.md, "Local state".
 */
package dev.gantry.common.files;
