//! The public API of every library crate, listed in `api/<package>.txt` with
//! the version it was recorded for, so a change to it cannot go unnoticed: a
//! listing that differs from the sources while the workspace still has the
//! recorded version fails (the README, "Changes", says what to do).
//! `UPDATE_API=1 cargo test -p igroteka --test api` rewrites the listings.
//!
//! The listing is made from the sources with `syn`: every `pub` item, in any
//! module, with its signature (not its body or docs) and the attributes that
//! change what callers may do (`derive`, `non_exhaustive`, `cfg`, `repr`);
//! enum variants, `pub` fields, trait items (required or provided), trait
//! impls and `pub` methods of the crate's public types. One line per item,
//! sorted, as tokens, so formatting and order do not count.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Fields, ImplItem, Item, TraitItem, Visibility};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tools/ has a parent").to_path_buf()
}

/// The library packages: (package name, directory).
fn libraries() -> Vec<(String, PathBuf)> {
    let root = workspace();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("crates/ entry").path())
        .collect();
    dirs.extend(["protocol", "tools/arena", "tools/games"].map(|dir| root.join(dir)));
    dirs.sort();
    dirs.into_iter()
        .filter(|dir| dir.join("src/lib.rs").exists())
        .map(|dir| {
            let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
            let name = manifest
                .lines()
                .find_map(|line| line.strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{}: no package name", dir.display()))
                .to_owned();
            (name, dir)
        })
        .collect()
}

fn workspace_version() -> String {
    let manifest = std::fs::read_to_string(workspace().join("Cargo.toml")).expect("Cargo.toml");
    manifest
        .lines()
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("the workspace version")
        .to_owned()
}

fn tokens(item: &impl ToTokens) -> String {
    item.to_token_stream().to_string()
}

/// The attributes that matter to callers, as a prefix.
fn attributes(attrs: &[Attribute]) -> String {
    attrs
        .iter()
        .filter(|attr| {
            ["derive", "non_exhaustive", "cfg", "cfg_attr", "repr", "macro_export"]
                .iter()
                .any(|name| attr.path().is_ident(name))
        })
        .map(|attr| tokens(attr) + " ")
        .collect()
}

fn is_public(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| tokens(attr) == "# [cfg (test)]")
}

/// One crate's listing.
struct Listing {
    lines: BTreeSet<String>,
    /// Names of the public types and traits, whose impls are listed.
    public_types: BTreeSet<String>,
}

impl Listing {
    fn of(dir: &Path) -> Vec<String> {
        let mut listing = Listing { lines: BTreeSet::new(), public_types: BTreeSet::new() };
        let root = parse(&dir.join("src/lib.rs"));
        // Two passes: the public type names first, then everything.
        listing.walk(&root.items, &dir.join("src"), "crate", true);
        listing.walk(&root.items, &dir.join("src"), "crate", false);
        listing.lines.into_iter().collect()
    }

    fn walk(&mut self, items: &[Item], dir: &Path, module: &str, names_only: bool) {
        for item in items {
            self.item(item, dir, module, names_only);
        }
    }

    fn add(&mut self, module: &str, attrs: &[Attribute], text: String) {
        self.lines.insert(format!("{module}: {}{text}", attributes(attrs)));
    }

    fn item(&mut self, item: &Item, dir: &Path, module: &str, names_only: bool) {
        if names_only {
            let name = match item {
                Item::Struct(s) if is_public(&s.vis) => Some(&s.ident),
                Item::Enum(e) if is_public(&e.vis) => Some(&e.ident),
                Item::Trait(t) if is_public(&t.vis) => Some(&t.ident),
                Item::Type(t) if is_public(&t.vis) => Some(&t.ident),
                Item::Union(u) if is_public(&u.vis) => Some(&u.ident),
                _ => None,
            };
            if let Some(name) = name {
                self.public_types.insert(name.to_string());
            }
        }
        match item {
            Item::Mod(m) if !is_test_only(&m.attrs) => {
                let child = format!("{module}::{}", m.ident);
                if is_public(&m.vis) && !names_only {
                    self.add(module, &m.attrs, format!("pub mod {}", m.ident));
                }
                let sub_dir = dir.join(m.ident.to_string());
                match &m.content {
                    Some((_, items)) => self.walk(items, &sub_dir, &child, names_only),
                    None => {
                        let file = [dir.join(format!("{}.rs", m.ident)), sub_dir.join("mod.rs")]
                            .into_iter()
                            .find(|file| file.exists())
                            .unwrap_or_else(|| panic!("{child}: no file in {}", dir.display()));
                        let items = parse(&file).items;
                        self.walk(&items, &sub_dir, &child, names_only);
                    }
                }
            }
            _ if names_only => {}
            Item::Fn(f) if is_public(&f.vis) => self.add(module, &f.attrs, tokens(&f.sig)),
            Item::Const(c) if is_public(&c.vis) => {
                self.add(module, &c.attrs, format!("const {}: {}", c.ident, tokens(&c.ty)));
            }
            Item::Static(s) if is_public(&s.vis) => {
                self.add(module, &s.attrs, format!("static {}: {}", s.ident, tokens(&s.ty)));
            }
            Item::Type(t) if is_public(&t.vis) => {
                let mut bare = t.clone();
                bare.attrs.clear();
                self.add(module, &t.attrs, tokens(&bare));
            }
            Item::Use(u) if is_public(&u.vis) => {
                let mut bare = u.clone();
                bare.attrs.clear();
                self.add(module, &u.attrs, tokens(&bare));
            }
            Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                let name = m.ident.as_ref().map(ToString::to_string).unwrap_or_default();
                self.add(module, &m.attrs, format!("macro_rules! {name}"));
            }
            Item::Struct(s) if is_public(&s.vis) => {
                let head = format!("struct {}{}", s.ident, tokens(&s.generics));
                let owner = format!("{head} {}", tokens(&s.generics.where_clause));
                self.add(module, &s.attrs, owner.clone() + &field_kind(&s.fields));
                self.fields(module, &owner, &s.fields);
            }
            Item::Enum(e) if is_public(&e.vis) => {
                let owner = format!(
                    "enum {}{} {}",
                    e.ident,
                    tokens(&e.generics),
                    tokens(&e.generics.where_clause)
                );
                self.add(module, &e.attrs, owner.clone());
                for variant in &e.variants {
                    let fields = variant_fields(&variant.fields);
                    let line = format!(
                        "{owner} :: {}{} {fields}",
                        attributes(&variant.attrs),
                        variant.ident
                    );
                    self.lines.insert(format!("{module}: {line}"));
                }
            }
            Item::Trait(t) if is_public(&t.vis) => {
                let mut head = t.clone();
                head.items.clear();
                head.attrs.clear();
                let owner = bare_head(&head);
                self.add(module, &t.attrs, owner.clone());
                for trait_item in &t.items {
                    let text = match trait_item {
                        TraitItem::Fn(f) => {
                            let kind = if f.default.is_some() { "provided" } else { "required" };
                            format!("{}{kind} {}", attributes(&f.attrs), tokens(&f.sig))
                        }
                        TraitItem::Type(ty) => {
                            let mut ty = ty.clone();
                            ty.attrs.clear();
                            tokens(&ty)
                        }
                        TraitItem::Const(c) => {
                            let kind = if c.default.is_some() { "provided" } else { "required" };
                            format!("{kind} const {}: {}", c.ident, tokens(&c.ty))
                        }
                        other => tokens(other),
                    };
                    self.lines.insert(format!("{module}: {owner} :: {text}"));
                }
            }
            Item::Impl(i) if self.names_public_type(&i.self_ty) => {
                let mut head = i.clone();
                head.items.clear();
                head.attrs.clear();
                let owner = bare_head(&head);
                if i.trait_.is_some() {
                    self.add(module, &i.attrs, owner);
                    return;
                }
                for impl_item in &i.items {
                    let text = match impl_item {
                        ImplItem::Fn(f) if is_public(&f.vis) => {
                            format!("{}{}", attributes(&f.attrs), tokens(&f.sig))
                        }
                        ImplItem::Const(c) if is_public(&c.vis) => {
                            format!("const {}: {}", c.ident, tokens(&c.ty))
                        }
                        _ => continue,
                    };
                    self.lines
                        .insert(format!("{module}: {}{owner} :: {text}", attributes(&i.attrs)));
                }
            }
            _ => {}
        }
    }

    fn fields(&mut self, module: &str, owner: &str, fields: &Fields) {
        for (index, field) in fields.iter().enumerate() {
            if is_public(&field.vis) {
                let name =
                    field.ident.as_ref().map_or_else(|| index.to_string(), ToString::to_string);
                let line =
                    format!("{owner} . {}{name}: {}", attributes(&field.attrs), tokens(&field.ty));
                self.lines.insert(format!("{module}: {line}"));
            }
        }
    }

    /// Whether `ty`'s last path segment names one of the crate's public types.
    fn names_public_type(&self, ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .is_some_and(|segment| self.public_types.contains(&segment.ident.to_string())),
            syn::Type::Reference(reference) => self.names_public_type(&reference.elem),
            _ => false,
        }
    }
}

/// An enum variant's fields, without their docs.
fn variant_fields(fields: &Fields) -> String {
    let list = |fields: &syn::punctuated::Punctuated<syn::Field, syn::token::Comma>| {
        let texts: Vec<String> = fields
            .iter()
            .map(|field| {
                let name = field.ident.as_ref().map(|name| format!("{name}: ")).unwrap_or_default();
                format!("{}{name}{}", attributes(&field.attrs), tokens(&field.ty))
            })
            .collect();
        texts.join(", ")
    };
    match fields {
        Fields::Named(named) => format!("{{ {} }}", list(&named.named)),
        Fields::Unnamed(unnamed) => format!("({})", list(&unnamed.unnamed)),
        Fields::Unit => String::new(),
    }
}

/// How a struct's fields are laid out: whether one can be added without
/// breaking callers depends on it (and on `non_exhaustive`).
fn field_kind(fields: &Fields) -> String {
    let private = fields.iter().filter(|field| !is_public(&field.vis)).count();
    let shape = match fields {
        Fields::Named(_) => "{ .. }",
        Fields::Unnamed(_) => "( .. )",
        Fields::Unit => ";",
    };
    format!("{shape} private fields: {private}")
}

/// A trait's or impl's tokens without its (emptied) braces.
fn bare_head(head: &impl ToTokens) -> String {
    let text = tokens(head);
    text.strip_suffix(" { }").unwrap_or(&text).to_owned()
}

fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The version a listing was recorded for, from its first line.
fn recorded_version(listing: &str) -> Option<&str> {
    listing.lines().next()?.rsplit(' ').next()
}

#[test]
fn the_public_api_changes_only_with_a_version_bump() {
    let version = workspace_version();
    let update = std::env::var_os("UPDATE_API").is_some();
    let dir = workspace().join("api");
    let mut failures = String::new();
    let libraries = libraries();
    assert!(libraries.len() >= 11, "{libraries:?}");
    for (name, crate_dir) in libraries {
        let file = dir.join(format!("{name}.txt"));
        let mut listing = format!("# The public API of {name} {version}\n");
        for line in Listing::of(&crate_dir) {
            writeln!(listing, "{line}").expect("a String takes text");
        }
        if update {
            std::fs::create_dir_all(&dir).expect("api/");
            std::fs::write(&file, &listing).expect("the listing is written");
            continue;
        }
        let recorded = std::fs::read_to_string(&file).unwrap_or_default();
        let body = |text: &str| text.lines().skip(1).map(str::to_owned).collect::<BTreeSet<_>>();
        let (now, then) = (body(&listing), body(&recorded));
        if now == then && recorded_version(&recorded) == Some(version.as_str()) {
            continue;
        }
        let Some(then_version) = recorded_version(&recorded) else {
            writeln!(failures, "{name}: no listing in {}", file.display()).expect("text");
            continue;
        };
        if then_version != version {
            // Bumped since the listing was recorded: changes are allowed until
            // the release, which records the listing again.
            eprintln!("{name}: the listing is of {then_version}, the workspace is {version}");
            continue;
        }
        writeln!(failures, "{name}: the public API changed, the version ({version}) did not:")
            .expect("text");
        for line in then.difference(&now) {
            writeln!(failures, "  - {line}").expect("text");
        }
        for line in now.difference(&then) {
            writeln!(failures, "  + {line}").expect("text");
        }
    }
    assert!(
        failures.is_empty(),
        "{failures}\nIf the change is meant, raise the workspace version (a breaking \
         change: the minor version before 1.0), note it in CHANGELOG.md and run \
         `UPDATE_API=1 cargo test -p igroteka --test api` (the README, \"Changes\")."
    );
}
