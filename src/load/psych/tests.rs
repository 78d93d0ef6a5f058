//! Unit tests of Psych's scalar typing (`tokenize`, `is_plain_str`).

use super::*;

fn t(s: &str) -> String {
    match tokenize(s, true) {
        Ok(Token::Value(k)) => format!("{k:?}"),
        Ok(Token::Symbol(n)) => format!("Symbol({n:?})"),
        Err(f) => format!("Err({})", f.message()),
    }
}

#[test]
fn psych_scalars() {
    let cases = [
        ("22:22", "Int(80520)"),
        ("1:30", "Int(5400)"),
        ("1:30:00", "Int(5400)"),
        ("-1:30", "Int(-1800)"),
        ("1:2:3:4", "Str(\"1:2:3:4\")"),
        ("1:60", "Str(\"1:60\")"),
        ("1__0:30", "Int(5400)"),
        ("1:30.5", "Float(5430.0)"),
        ("1:30:20.5", "Float(5420.5)"),
        ("-.5", "Float(-0.5)"),
        (".5", "Float(0.5)"),
        ("1.", "Float(1.0)"),
        ("1.e+3", "Float(1000.0)"),
        ("1e3", "Str(\"1e3\")"),
        ("1.0e3", "Str(\"1.0e3\")"),
        ("1.0E+3", "Float(1000.0)"),
        ("1,000", "Int(1000)"),
        ("1,2", "Int(12)"),
        ("1,000.5", "Float(1000.5)"),
        ("0o17", "Str(\"0o17\")"),
        ("0b1_0", "Int(2)"),
        ("0b_", "Err(invalid value for Integer(): \"0b\")"),
        ("0X1F", "Str(\"0X1F\")"),
        ("012", "Int(10)"),
        ("08", "Str(\"08\")"),
        ("00", "Int(0)"),
        ("1__000", "Str(\"1__000\")"),
        ("yEs", "Bool(true)"),
        ("y", "Str(\"y\")"),
        ("nULL", "Null"),
        ("~", "Null"),
        ("", "Null"),
        ("y\nyes", "Bool(true)"),
        ("y\n\nn", "Str(\"y\\n\\nn\")"),
        ("2025-06-01", "Err(Tried to load unspecified class: Date)"),
        ("2025-02-30", "Err(Tried to load unspecified class: Date)"),
        ("2025-13-01", "Str(\"2025-13-01\")"),
        (
            "2001-12-14 21:59:43.10 -5",
            "Err(Tried to load unspecified class: Time)",
        ),
        (
            "2001-12-14t21:59:43.10-05:00",
            "Err(Tried to load unspecified class: Time)",
        ),
        (":sym", "Symbol(\"sym\")"),
        (":\"a b\"", "Symbol(\"a b\")"),
        ("::x", "Symbol(\":x\")"),
        (".iNf", "Float(inf)"),
        (".", "Str(\".\")"),
        ("-.", "Str(\"-.\")"),
        (".e+3", "Err(invalid value for Float(): \"e+3\")"),
        ("1.2.3", "Str(\"1.2.3\")"),
        ("99999999999999999999", "BigInt(\"99999999999999999999\")"),
    ];
    for (text, want) in cases {
        assert_eq!(t(text), want, "{text:?}");
    }
    assert!(matches!(tokenize(":a", false), Err(Fault::Disallowed(c)) if c == "Symbol"));
}

#[test]
fn every_short_text_is_typed_without_a_panic() {
    // Every text of up to three characters from those the rules look at.
    let alphabet: Vec<char> = "0159:.,_-+eExXbBo ~\n\"'yYnNtT\u{e9}a".chars().collect();
    let mut texts = vec![String::new()];
    for _ in 0..3 {
        let longer: Vec<String> = texts
            .iter()
            .filter(|t| t.chars().count() == texts.last().map_or(0, |l| l.chars().count()))
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(longer);
    }
    for t in &texts {
        let typed = tokenize(t, true);
        if let Ok(Token::Value(Kind::Str(s))) = &typed {
            assert_eq!(&**s, t.as_str(), "a string is its own text");
            assert!(is_plain_str(t));
        }
        let _ = tokenize(&format!("{t}:{t}"), false);
        let _ = tokenize(&format!("2025-{t}"), true);
    }
}

#[test]
fn is_plain_str_answers_as_tokenize() {
    let words = [
        "yEs", "nULL", "Off", "ON", "offer", "~", "~x", "true1", "a b", "y", "n", "yes\nno",
        "x\nyes", "nulls", "FALSE", "no!", "é", "_x", "!x", "=", "<<", "falsey", "1,000", "1,2",
        ":x", "0:30", ".iNf", "2024-1-2", "a,b", "-.5", "1e3", "+1", "0o17", "~~",
    ];
    let alphabet: Vec<char> = "yYeEsSnNoOfFtTrRuUlL~a 1".chars().collect();
    let mut texts: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    for a in &alphabet {
        for b in &alphabet {
            for c in ["", "s", "es", "ll", "lse", "ue"] {
                texts.push(format!("{a}{b}{c}"));
            }
        }
    }
    for t in &texts {
        let slow = matches!(tokenize(t, true), Ok(Token::Value(Kind::Str(s))) if &*s == t);
        assert_eq!(is_plain_str(t), slow, "{t:?}");
    }
    for t in ["yEs", "nULL", "1,000", ":x", "0:30", ".iNf", "2024-1-2"] {
        assert!(!is_plain_str(t), "{t:?}");
    }
}
