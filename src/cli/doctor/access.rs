//! Whether this user may read and write a port, and if not, why and what gives it: the kernel's
//! answer (access(2), which also weighs ACLs) with the port's owner, group and mode for the fix.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use nix::unistd::{AccessFlags, Gid, Group, Uid, User, access, getgroups, getuid};

use super::finding::{Finding, Need};

/// The commands that open a board's port.
const OPENING_A_PORT: &[Need] = &[
    Need::Watch,
    Need::Play,
    Need::Online,
    Need::Serve,
    Need::Calibrate,
];

/// The udev rule the Debian package installs, and where it is in the source.
pub const UDEV_RULE: &str = "60-touchmove.rules";

/// A port as the file system has it, and who is asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The port's owner's name (or uid).
    pub owner: String,
    /// The port's group's name (or gid).
    pub group: String,
    /// Its permission bits.
    pub mode: u32,
    /// The user asking.
    pub user: String,
    /// Whether the process holds the port's group now.
    pub in_group_now: bool,
    /// Whether the group database lists the user in it (a new member holds it only once
    /// logged in again).
    pub in_group_listed: bool,
}

/// What to do for `seen.user` to read and write the port `seen` describes.
pub fn fix(seen: &Seen) -> String {
    let group_may = seen.mode & 0o060 == 0o060;
    let rule = format!(
        "install the udev rule ({UDEV_RULE}: the Debian package's, or packaging/udev/ copied to \
         /etc/udev/rules.d/, then `sudo udevadm control --reload && sudo udevadm trigger`), \
         which gives the boards' ports to the group dialout, mode 0660"
    );
    if !group_may {
        return format!(
            "its group {} may not read and write it (mode {:04o}): {rule}",
            seen.group, seen.mode
        );
    }
    if seen.in_group_listed && !seen.in_group_now {
        return format!(
            "{} is in the group {} since this session began: log out and in again (or run \
             `newgrp {}`)",
            seen.user, seen.group, seen.group
        );
    }
    format!(
        "`sudo usermod -aG {} {}`, then log out and in again",
        seen.group, seen.user
    )
}

/// Whether this user may read and write the port `path`: a finding, with the fix when not.
pub fn check(path: &Path) -> Finding {
    let name = path.display();
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) => {
            return Finding::missing(
                OPENING_A_PORT,
                format!("port {name}: {error}"),
                "plug the board in, or name its port as the system lists it (`touchmove ports`)"
                    .to_owned(),
            );
        }
    };
    match access(path, AccessFlags::R_OK | AccessFlags::W_OK) {
        Ok(()) => Finding::ok(format!("port {name}: readable and writable")),
        Err(error) => {
            let seen = seen(&metadata);
            Finding::missing(
                OPENING_A_PORT,
                format!(
                    "port {name}: {} may not read and write it ({}; {}:{}, {:04o})",
                    seen.user,
                    error.desc(),
                    seen.owner,
                    seen.group,
                    seen.mode
                ),
                fix(&seen),
            )
        }
    }
}

/// The port of `metadata` as this process sees it.
fn seen(metadata: &std::fs::Metadata) -> Seen {
    let uid = getuid();
    let gid = Gid::from_raw(metadata.gid());
    let user = User::from_uid(uid).ok().flatten();
    let user_name = user
        .as_ref()
        .map_or_else(|| uid.to_string(), |user| user.name.clone());
    let group = Group::from_gid(gid).ok().flatten();
    let owner = User::from_uid(Uid::from_raw(metadata.uid()))
        .ok()
        .flatten()
        .map_or_else(|| metadata.uid().to_string(), |owner| owner.name);
    let in_group_now = getgroups().is_ok_and(|groups| groups.contains(&gid))
        || user.as_ref().is_some_and(|user| user.gid == gid);
    let in_group_listed = group
        .as_ref()
        .is_some_and(|group| group.mem.contains(&user_name));
    Seen {
        owner,
        group: group.map_or_else(|| gid.to_string(), |group| group.name),
        mode: metadata.mode() & 0o7777,
        user: user_name,
        in_group_now,
        in_group_listed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(mode: u32, now: bool, listed: bool) -> Seen {
        Seen {
            owner: "root".to_owned(),
            group: "dialout".to_owned(),
            mode,
            user: "anna".to_owned(),
            in_group_now: now,
            in_group_listed: listed,
        }
    }

    #[test]
    fn a_user_outside_the_port_s_group_is_told_to_join_it() {
        assert_eq!(
            fix(&seen(0o660, false, false)),
            "`sudo usermod -aG dialout anna`, then log out and in again"
        );
    }

    #[test]
    fn a_member_since_this_session_began_is_told_to_log_in_again() {
        assert!(fix(&seen(0o660, false, true)).starts_with(
            "anna is in the group dialout since this session began: log out and in again"
        ));
    }

    #[test]
    fn a_group_that_may_not_write_needs_the_udev_rule() {
        let said = fix(&seen(0o620, true, true));
        assert!(
            said.starts_with("its group dialout may not read and write it (mode 0620): install the udev rule (60-touchmove.rules"),
            "{said}"
        );
    }
}
