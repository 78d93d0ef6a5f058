//! The key material of an eyaml level, found as hiera-eyaml 3.3.0's PKCS7 encryptor finds it
//! (`encryptors/pkcs7.rb`, `decrypt`): the level's options interpolated first (Puppet's
//! `HieraConfigV5` interpolates `options`, scope variables only); `pkcs7_public_key` or
//! `pkcs7_public_key_env_var` must be named, then `pkcs7_private_key` or its `_env_var`; the
//! environment variable, when it is set (even empty), wins over the file (hiera-eyaml's own
//! warning, `both private_key and private_key_env_var specified, using private_key`, says the
//! opposite of what its code does); a file is opened as written, a relative path from the
//! working directory. `--eyaml-private-key FILE` replaces the private key of every level
//! (the certificate is then not read). Key texts are never shown in a message.

use super::config::Eyaml;
use super::eyaml::{Certificate, PrivateKey};
use super::locate::ScopeOnly;
use super::state::Hiera;
use crate::error::{WarnKind, Warning};
use crate::value::Node;
use std::path::Path;
use std::rc::Rc;

/// What decrypts a level's values: the private key, the certificate (none with
/// `--eyaml-private-key`), and how messages name the key.
pub struct Material {
    pub key: Rc<PrivateKey>,
    pub cert: Option<Rc<Certificate>>,
    pub name: String,
}

/// Where a level's key or certificate comes from, its options interpolated.
struct Source {
    file: Option<String>,
    env: Option<String>,
}

impl Hiera<'_> {
    /// The key material of eyaml level `level`, read once per level; the error is the text
    /// after Puppet's `Error was`.
    pub(super) fn material(&mut self, level: usize) -> Result<Rc<Material>, String> {
        if let Some(m) = self.secrets.material.get(&level) {
            return m.clone();
        }
        let m = self.read_material(level).map(Rc::new);
        self.secrets.material.insert(level, m.clone());
        m
    }

    fn read_material(&mut self, level: usize) -> Result<Material, String> {
        let Some(opts) = self.config.levels[level].eyaml.clone() else {
            return Err("not an eyaml level".into());
        };
        let entry = self.config.levels[level].name.clone();
        if let Some(input) = &self.secrets.key_override {
            let name = format!("{} (--eyaml-private-key)", input.name);
            let key = pem_key(&input.bytes)
                .map_err(|e| format!("cannot read the private key {name}: {e}"))?;
            return Ok(Material {
                key: Rc::new(key),
                cert: None,
                name,
            });
        }
        let (private, public) = self.interpolated(&opts)?;
        if public.file.is_none() && public.env.is_none() {
            return Err(
                "pkcs7_public_key is not defined (hiera-eyaml needs the certificate beside the private key: give the level's options a pkcs7_public_key)"
                    .into(),
            );
        }
        if private.file.is_none() && private.env.is_none() {
            return Err("pkcs7_private_key is not defined (give the level's options a pkcs7_private_key, or --eyaml-private-key FILE)".into());
        }
        for (what, s) in [("private", &private), ("public", &public)] {
            if let (Some(_), Some(var)) = (&s.file, &s.env) {
                self.warnings.push(Warning::new(
                    WarnKind::NoEffect,
                    format!(
                        "hierarchy entry \"{entry}\" names both pkcs7_{what}_key and pkcs7_{what}_key_env_var: hiera-eyaml reads ${var} while it is set and the file only when it is not (its own warning, `both {what}_key and {what}_key_env_var specified, using {what}_key`, says otherwise)"
                    ),
                    opts.span,
                ));
            }
        }
        let (bytes, name) = self.pem(&private, "pkcs7_private_key", &entry, "private key")?;
        let key =
            pem_key(&bytes).map_err(|e| format!("cannot read the private key {name}: {e}"))?;
        let (bytes, cert_name) = self.pem(&public, "pkcs7_public_key", &entry, "certificate")?;
        let cert = Certificate::read(&bytes)
            .map_err(|e| format!("cannot read the certificate {cert_name}: {e}"))?;
        Ok(Material {
            key: Rc::new(key),
            cert: Some(Rc::new(cert)),
            name,
        })
    }

    /// The options as Puppet hands them to hiera-eyaml: interpolated (`%{facts.keydir}`).
    fn interpolated(&self, opts: &Eyaml) -> Result<(Source, Source), String> {
        let mut cx = ScopeOnly {
            scope: &self.scope,
            local: None,
        };
        let mut text = |s: &Option<String>| -> Result<Option<String>, String> {
            s.as_ref()
                .map(|t| {
                    super::interp::interpolate(Node::str(t.as_str(), opts.span), false, &mut cx)
                        .map(|n| n.as_str().unwrap_or_default().to_string())
                        .map_err(|e| e.message)
                })
                .transpose()
        };
        Ok((
            Source {
                file: text(&opts.private_key)?,
                env: text(&opts.private_key_env)?,
            },
            Source {
                file: text(&opts.public_key)?,
                env: text(&opts.public_key_env)?,
            },
        ))
    }

    /// The PEM bytes of a key or certificate and how messages name where they came from.
    fn pem(
        &mut self,
        s: &Source,
        option: &str,
        entry: &str,
        what: &str,
    ) -> Result<(Vec<u8>, String), String> {
        if let Some(var) = &s.env {
            if let Some(text) = self.secrets.env.and_then(|env| env(var)) {
                return Ok((
                    text.into_bytes(),
                    format!("${var} ({option}_env_var of hierarchy entry \"{entry}\")"),
                ));
            }
        }
        let Some(path) = &s.file else {
            let var = s.env.as_deref().unwrap_or_default();
            return Err(format!(
                "the environment variable {var} ({option}_env_var of hierarchy entry \"{entry}\") is not set, and the level names no {option} file (hiera-eyaml: no implicit conversion of nil into String)"
            ));
        };
        let name = format!("{path} ({option} of hierarchy entry \"{entry}\")");
        match self.files.read(Path::new(path)) {
            Ok(Some(input)) => Ok((input.bytes, name)),
            Ok(None) => Err(format!(
                "the {what} file {name} does not exist{} (hiera-eyaml: No such file or directory @ rb_sysopen - {path})",
                if Path::new(path).is_relative() {
                    ": a relative path is opened from the working directory, as hiera-eyaml opens it"
                } else {
                    ""
                }
            )),
            Err(e) => Err(format!("{} ({name})", e.message)),
        }
    }

    /// How messages name the key a level decrypts with.
    pub(super) fn key_name(&mut self, level: usize) -> String {
        match self.material(level) {
            Ok(m) => m.name.clone(),
            Err(_) => "no key".into(),
        }
    }
}

fn pem_key(bytes: &[u8]) -> Result<PrivateKey, super::eyaml::EyamlError> {
    match std::str::from_utf8(bytes) {
        Ok(t) => PrivateKey::from_pem(t),
        Err(_) => PrivateKey::from_pem(""),
    }
}
