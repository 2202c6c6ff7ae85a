//! Build script: tells the tests whether the shared contest data lies beside the checkout.
//!
//! The project never copies `../shared` in, so the tests that need it are compiled with
//! `#[cfg_attr(no_shared_icfp, ignore = "...")]` (and `no_shared_pack` for the puzzles): without
//! the data they are reported as ignored, with the reason, instead of passing empty.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_shared_icfp)");
    println!("cargo::rustc-check-cfg=cfg(no_shared_pack)");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (cfg, marker) in [
        ("no_shared_icfp", "shared/icfp2015/RULES.md"),
        ("no_shared_pack", "shared/pack/PUZZLES.md"),
    ] {
        let path = root.join(marker);
        // Rerun when the data appears or goes away.
        println!("cargo::rerun-if-changed={}", path.display());
        if !path.exists() {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
    println!("cargo::rerun-if-changed=build.rs");
}
