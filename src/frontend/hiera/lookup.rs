//! One Hiera lookup as Puppet 7 runs it: `lookup_options` gathered first (a `hash` merge over
//! every level, compiled to exact keys and `^` patterns), the merge behaviour chosen (explicit
//! `--merge`, else the root key's options entry, else `first`), then the hierarchy searched
//! level by level and location by location, each level's locations folded with the behaviour
//! and the levels folded again (`MergeStrategy#lookup`: `convert_value` on the first value,
//! `merge(memo, value)` after, `merge_single` when there is one place only), the result passed
//! through the provider stack (`convert_value` once more) and dug into with the key's sub
//! keys. Data files are read once; found values are interpolated; recursion is an error.

use super::behave::{Behaviour, Name};
use super::check;
use super::interp::{self, Interp, Seg};
use super::locate::{self, Location};
use super::report::{say, value as show, Log};
use super::state::Hiera;
use crate::error::{Error, ErrorKind, Result};
use crate::merge::fold::Fold;
use crate::value::{Key, Kind, Map, Node, Path as VPath, Span};

/// Deepest chain of lookups inside interpolations (each one recurses).
const MAX_NESTING: usize = 64;

impl Hiera<'_> {
    /// Every level's locations (interpolated once).
    pub fn locations(&mut self) -> Result<&Vec<Vec<Location>>> {
        if self.levels.is_none() {
            let mut all = Vec::with_capacity(self.config.levels.len());
            for level in &self.config.levels {
                all.push(locate::locations(
                    level,
                    &self.root,
                    &self.scope,
                    self.files,
                    &mut self.warnings,
                )?);
            }
            self.prefetch(&all);
            self.levels = Some(all);
        }
        Ok(self.levels.get_or_insert_with(Vec::new))
    }

    /// Runs `f` with `name` on the recursion stack.
    pub fn checked<T>(
        &mut self,
        name: &str,
        at: Span,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.enter(name, at)?;
        let r = f(self);
        self.leave();
        r
    }

    /// The hierarchy searched for `root` with `b` (the global data provider).
    pub fn search(&mut self, root: &str, b: &Behaviour) -> Result<Option<Node>> {
        say(&mut self.log, || {
            "Global Data Provider (hiera configuration version 5)".into()
        });
        let name = self.config_name.clone();
        if let Some(l) = self.log.as_mut() {
            l.push();
            l.line(format!("Using configuration \"{name}\""));
        }
        let n = self.locations()?.len();
        let r = self.fold(b, n, true, &mut |h, i| h.level_value(i, root, b));
        if let Some(l) = self.log.as_mut() {
            l.pop();
        }
        r
    }

    fn level_value(&mut self, i: usize, root: &str, b: &Behaviour) -> Result<Option<Node>> {
        // The whole document knows which levels hold each key: the others are not searched
        // (nothing is logged for the whole document, and a level without the key adds
        // nothing), so its cost grows with the entries, not keys times levels.
        let absent = |mask: &u64| i < 64 && mask & (1 << i) == 0;
        if self.log.is_none() && self.key_levels.get(root).is_some_and(absent) {
            return Ok(None);
        }
        let levels = &self.config.levels;
        say(&mut self.log, || {
            format!("Hierarchy entry \"{}\"", levels[i].name)
        });
        Fold::layer(self.trace.as_mut(), i);
        let n = self.locations()?[i].len();
        let depth = self.log.as_ref().map(Log::depth);
        if let Some(l) = self.log.as_mut() {
            l.push();
        }
        let r = self.fold(b, n, false, &mut |h, j| h.location_value(i, j, root));
        if let (Some(l), Some(d)) = (self.log.as_mut(), depth) {
            l.reset(d);
        }
        r
    }

    fn location_value(&mut self, i: usize, j: usize, root: &str) -> Result<Option<Node>> {
        let logged = self.log.is_some();
        let loc = &self.locations()?[i][j];
        let path = std::rc::Rc::clone(&loc.path);
        let original = if logged {
            loc.original.clone()
        } else {
            String::new()
        };
        if let Some(l) = self.log.as_mut() {
            l.line(format!("Path \"{}\"", path.display()));
            l.push();
            l.line(format!("Original path: \"{original}\""));
        }
        let format = self.config.levels[i].format;
        let found = match self.value_in(&path, format, root)? {
            None => {
                say(&mut self.log, || "Path not found".into());
                self.searched.push((i, j, "not found"));
                None
            }
            Some(value) => match value {
                None => {
                    say(&mut self.log, || format!("No such key: \"{root}\""));
                    self.searched.push((i, j, "no such key"));
                    None
                }
                Some(v) => {
                    self.searched.push((i, j, "found"));
                    self.refused.extend(self.noted.take());
                    let origin = check::Origin {
                        key: root,
                        path: &path,
                        format,
                    };
                    check::rich_data(&v, &self.refused, &origin)?;
                    let v = self.decrypt(v, i, root, &path)?;
                    let v = interp::interpolate(v, true, self)?;
                    self.remember_interpolated(&v);
                    say(&mut self.log, || {
                        format!("Found key: \"{root}\" value: {}", show(&v))
                    });
                    Some(v)
                }
            },
        };
        if let Some(l) = self.log.as_mut() {
            l.pop();
        }
        Ok(found)
    }

    /// `MergeStrategy#lookup` over `n` variants.
    fn fold(
        &mut self,
        b: &Behaviour,
        n: usize,
        levels: bool,
        f: &mut dyn FnMut(&mut Self, usize) -> Result<Option<Node>>,
    ) -> Result<Option<Node>> {
        if b.name == Name::First {
            for i in 0..n {
                if let Some(v) = f(self, i)? {
                    return Ok(self.first(b, i, levels, v).finish().0);
                }
            }
            return Ok(None);
        }
        if n == 1 {
            let v = f(self, 0)?.map(|v| self.first(b, 0, levels, v).finish().0);
            return Ok(v.flatten().map(|v| b.single(v)));
        }
        say(&mut self.log, || {
            format!("Merge strategy {}", b.name.as_str())
        });
        if let Some(l) = self.log.as_mut() {
            l.push();
            if !b.options.is_empty() {
                let mut m = Map::new();
                for (k, v) in &b.options {
                    m.insert(Key::str(k), v.clone());
                }
                l.line(format!("Options: {}", show(&Node::map(m, Span::NONE))));
            }
        }
        let mut memo = Fold::new();
        for i in 0..n {
            let Some(v) = f(self, i)? else { continue };
            if memo.is_empty() {
                memo = self.first(b, i, levels, b.convert(v));
                continue;
            }
            let at = v.span;
            let level = self.level_name(i, levels);
            let rule = self.trace.is_some().then(|| b.rule(&level));
            b.merge(&mut memo, v, self.trace.as_mut(), rule).map_err(|msg| {
                Error::new(ErrorKind::Merge, msg)
                    .at(at)
                    .hint("make every level's value a type this merge behaviour accepts, or choose another behaviour")
            })?;
        }
        let (memo, _) = memo.finish();
        if let Some(l) = self.log.as_mut() {
            if let Some(m) = &memo {
                l.line(format!("Merged result: {}", show(m)));
            }
            l.pop();
        }
        Ok(memo)
    }

    fn level_name(&self, i: usize, levels: bool) -> String {
        let t = self.trace.as_ref().map_or(0, |t| t.layer() as usize);
        let idx = if levels { i } else { t };
        self.config
            .levels
            .get(idx)
            .map_or_else(String::new, |l| l.name.clone())
    }

    /// A fold that starts with `v`, the first value found (at level or location `i`).
    fn first(&mut self, b: &Behaviour, i: usize, levels: bool, v: Node) -> Fold {
        let level = self.level_name(i, levels);
        let mut fold = Fold::new();
        fold.first(self.trace.as_mut(), |_| b.rule(&level), v);
        fold
    }

    /// A whole lookup of `key` (`LookupAdapter#lookup`): `None` when not found.
    pub fn lookup(
        &mut self,
        key: &str,
        merge: Option<&Behaviour>,
        at: Span,
    ) -> Result<Option<Node>> {
        if key == "lookup_options" || key.starts_with("lookup_options.") {
            return Ok(None);
        }
        let (root, segs) = interp::split_key(key)
            .map_err(|p| Error::new(ErrorKind::Usage, format!("{p} in key: '{key}'")).at(at))?;
        // A key in a module's namespace (`ntp::servers`) is also searched in that module's
        // data, which Puppet reports as not found (strata has no modules).
        let module = root
            .split_once("::")
            .map(|(m, _)| m.to_string())
            .filter(|m| !m.is_empty());
        self.gather_options(module.as_deref())?;
        let chosen = match merge {
            Some(b) => b.clone(),
            None => match self.options.as_ref().and_then(|o| o.behaviour_for(&root)) {
                Some(r) => {
                    say(&mut self.log, || {
                        "Using merge options from \"lookup_options\" hash".into()
                    });
                    r?
                }
                None => Behaviour::first(),
            },
        };
        say(&mut self.log, || format!("Searching for \"{key}\""));
        let depth = self.log.as_ref().map(Log::depth);
        if let Some(l) = self.log.as_mut() {
            l.push();
        }
        self.searched.clear();
        let wrapped = module.is_some() && chosen.name != Name::First;
        if wrapped {
            say(&mut self.log, || {
                format!("Merge strategy {}", chosen.name.as_str())
            });
            if let Some(l) = self.log.as_mut() {
                l.push();
            }
        }
        let found = self.checked(key, at, |h| h.search(&root, &chosen))?;
        if let Some(m) = &module {
            say(&mut self.log, || format!("Module \"{m}\" not found"));
            if let (true, Some(v), Some(l)) = (wrapped, &found, self.log.as_mut()) {
                l.line(format!("Merged result: {}", show(v)));
            }
        }
        // The provider stack (global, environment, module): only global has data here.
        let found = match (chosen.name, found) {
            (Name::First, f) => f,
            (_, f) => f.map(|v| chosen.convert(v)),
        };
        let result = match found {
            None => None,
            Some(v) if segs.is_empty() => Some(v),
            Some(v) => self.dig(v, &segs, key, at)?,
        };
        if let (Some(l), Some(d)) = (self.log.as_mut(), depth) {
            l.reset(d);
        }
        let result = match result {
            Some(v) => Some(self.convert_to(&root, v)?),
            None => None,
        };
        Ok(result)
    }

    fn dig(&mut self, v: Node, segs: &[Seg], key: &str, at: Span) -> Result<Option<Node>> {
        let mut cur = Some(v);
        let mut path = VPath::root();
        let joined: Vec<String> = segs.iter().map(ToString::to_string).collect();
        say(&mut self.log, || {
            format!("Sub key: \"{}\"", joined.join("."))
        });
        if let Some(l) = self.log.as_mut() {
            l.push();
        }
        for (i, seg) in segs.iter().enumerate() {
            let Some(value) = cur.take() else { break };
            let next = interp::dig(value, std::slice::from_ref(seg), key)
                .map_err(|m| Error::new(ErrorKind::Merge, m).at(at))?;
            say(&mut self.log, || match &next {
                Some(n) => format!("Found key: \"{seg}\" value: {}", show(n)),
                None => format!("No such key: \"{seg}\""),
            });
            let _ = i;
            match seg {
                Seg::Key(k) => path.push_key(k),
                Seg::Index(n) => path.push_index(usize::try_from(*n).unwrap_or(0)),
            }
            cur = next;
        }
        // Steps are re-rooted at the dug value.
        if let Some(t) = self.trace.as_mut() {
            for s in t.steps.iter_mut() {
                if s.path.starts_with(&path) {
                    s.path.0.drain(..path.0.len());
                }
            }
        }
        Ok(cur)
    }

    fn convert_to(&mut self, root: &str, v: Node) -> Result<Node> {
        let Some((ty, span)) = self.options.as_ref().and_then(|o| o.convert_to(root)) else {
            return Ok(v);
        };
        let converted = super::ruby::convert(&ty, v, root, span)?;
        say(&mut self.log, || {
            let args = match &ty.kind {
                Kind::List(items) => items.iter().map(convert_arg).collect::<Vec<_>>(),
                _ => vec![convert_arg(&ty)],
            };
            format!(
                "Applying convert_to lookup_option with arguments [{}]",
                args.join(", ")
            )
        });
        Ok(converted)
    }
}

/// A `convert_to` argument as Puppet's report prints it: the type by its name.
fn convert_arg(n: &Node) -> String {
    match &n.kind {
        Kind::Str(s) => s.to_string(),
        _ => super::ruby::inspect(n),
    }
}

impl Interp for Hiera<'_> {
    fn variable(&mut self, name: &str) -> Option<Node> {
        self.scope.get(&Key::str(name)).cloned()
    }
    fn lookup(&mut self, key: &str, at: Span) -> Result<Option<Node>> {
        let log = self.log.take();
        let trace = self.trace.take();
        let searched = std::mem::take(&mut self.searched);
        let r = Hiera::lookup(self, key, None, at);
        self.log = log;
        self.trace = trace;
        self.searched = searched;
        r
    }
    fn enter(&mut self, name: &str, at: Span) -> Result<()> {
        if self.stack.iter().any(|n| n == name) {
            let chain = self.stack.join(", ");
            return Err(Error::new(
                ErrorKind::Directive,
                format!("Recursive lookup detected in [{chain}]"),
            )
            .at(at)
            .hint(format!("'{name}' is interpolated while it is being looked up: break the cycle of %{{lookup()}} / %{{alias()}} references")));
        }
        if self.stack.len() >= MAX_NESTING {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("lookups nested more than {MAX_NESTING} deep while interpolating '{name}'"),
            )
            .at(at)
            .hint("shorten the chain of %{lookup()} / %{alias()} references"));
        }
        self.stack.push(name.to_string());
        Ok(())
    }
    fn leave(&mut self) {
        self.stack.pop();
    }
}
