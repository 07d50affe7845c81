//! Where virtual boards announce themselves: a directory of symlinks, one per board, named
//! by its serial number and pointing at its current pseudo-terminal — the way
//! `/dev/serial/by-id` names real USB boards.
//!
//! The directory is `$TANDEM_RUNTIME_DIR` if set, else `$XDG_RUNTIME_DIR/tandem/boards`,
//! else `/tmp/tandem-<user>/boards`. Links whose target is gone (a board killed without
//! cleaning up) are ignored and overwritten.

use std::io;
use std::path::{Path, PathBuf};

/// The registry directory for this user.
#[must_use]
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TANDEM_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("tandem").join("boards");
    }
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "user".into());
    PathBuf::from(format!("/tmp/tandem-{user}/boards"))
}

fn valid_name(serial: &str) -> bool {
    !serial.is_empty() && serial.len() <= 32 && serial.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn bad_name(serial: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("serial number `{serial}` cannot name a registry entry"),
    )
}

/// Points `dir/serial` at `target` (atomically replacing an older link).
pub fn publish(dir: &Path, serial: &str, target: &Path) -> io::Result<()> {
    if !valid_name(serial) {
        return Err(bad_name(serial));
    }
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{serial}.{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)?;
    std::fs::rename(&tmp, dir.join(serial))
}

/// Removes `dir/serial` if it still points at `target`.
pub fn unpublish(dir: &Path, serial: &str, target: &Path) {
    if !valid_name(serial) {
        return;
    }
    let link = dir.join(serial);
    if std::fs::read_link(&link).is_ok_and(|t| t == target) {
        let _ = std::fs::remove_file(link);
    }
}

/// The live target of `dir/serial`.
#[must_use]
pub fn lookup(dir: &Path, serial: &str) -> Option<PathBuf> {
    if !valid_name(serial) {
        return None;
    }
    let target = std::fs::read_link(dir.join(serial)).ok()?;
    target.exists().then_some(target)
}

/// All live entries: (serial, target), sorted by serial.
#[must_use]
pub fn list(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !valid_name(&name) {
                return None;
            }
            let target = lookup(dir, &name)?;
            Some((name, target))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_lookup_unpublish() {
        let dir = std::env::temp_dir().join(format!("tandem-registry-{}", std::process::id()));
        let target = std::env::temp_dir();
        publish(&dir, "12345", &target).unwrap();
        assert_eq!(lookup(&dir, "12345"), Some(target.clone()));
        assert_eq!(list(&dir), vec![("12345".to_string(), target.clone())]);
        // A dangling link is not listed.
        publish(&dir, "99999", Path::new("/nonexistent/pts/77")).unwrap();
        assert_eq!(lookup(&dir, "99999"), None);
        assert_eq!(list(&dir).len(), 1);
        assert!(publish(&dir, "../x", &target).is_err());
        unpublish(&dir, "12345", Path::new("/other"));
        assert!(
            lookup(&dir, "12345").is_some(),
            "only removed if it is ours"
        );
        unpublish(&dir, "12345", &target);
        assert_eq!(lookup(&dir, "12345"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
