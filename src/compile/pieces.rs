//! Piece declarations: names, attributes, notation and values, read before any program (programs may name
//! any piece). The programs themselves are compiled afterwards (`program.rs`).

use super::*;

/// The pieces a game declares, with the attributes they name.
pub(super) struct Declared {
    pub index: HashMap<String, PieceType>,
    pub attributes: Vec<String>,
    pub attr_index: HashMap<String, AttrId>,
    pub pieces: Vec<PieceInfo>,
}

impl Compiler<'_> {
    /// Reads the `piece` sections' names and attributes (not their programs).
    pub(super) fn piece_declarations(&mut self, piece_nodes: &[&Node]) -> Declared {
        let mut piece_index = HashMap::default();
        let mut attributes: Vec<String> = vec![];
        let mut attr_index: HashMap<String, AttrId> = HashMap::default();
        let mut pieces: Vec<PieceInfo> = vec![];
        for p in piece_nodes {
            let name = p
                .args()
                .iter()
                .find(|a| a.head().is_some_and(|h| h.eq_ignore_ascii_case("name")))
                .and_then(|a| a.args().first())
                .and_then(|n| n.text());
            let Some(name) = name else {
                self.err(p.span, "a piece needs `(name N)`");
                continue;
            };
            if piece_index.contains_key(&name.to_ascii_lowercase()) {
                self.diags.push(
                    Diagnostic::warning(
                        p.span,
                        format!("piece `{name}` is declared again; the first declaration is used"),
                    )
                    .with_hint(
                        "Dagaz files sometimes declare a piece once per player, for its images",
                    ),
                );
                continue;
            }
            piece_index.insert(name.to_ascii_lowercase(), PieceType(pieces.len() as u16));
            let mut info = PieceInfo {
                name: name.to_string(),
                notation: None,
                attributes: vec![],
                constants: vec![],
                moves: vec![],
                drops: vec![],
                value: None,
            };
            for a in p.args() {
                match a.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                    Some("attribute") => {
                        let (Some(an), v) =
                            (a.args().first().and_then(|n| n.atom()), a.args().get(1))
                        else {
                            self.err(a.span, "`attribute` needs a name and a value");
                            continue;
                        };
                        let l = an.to_ascii_lowercase();
                        let max = MAX_ATTRIBUTES;
                        if !attr_index.contains_key(&l) && attributes.len() >= max {
                            self.diags.push(
                                Diagnostic::error(
                                    a.span,
                                    format!("attribute `{an}` is one too many: a game may declare at most {max} attributes"),
                                )
                                .with_hint("pieces may share attribute names; an attribute is one bit of each piece"),
                            );
                            continue;
                        }
                        let id = *attr_index.entry(l.clone()).or_insert_with(|| {
                            attributes.push(l);
                            AttrId(attributes.len() as u16 - 1)
                        });
                        let text = v.and_then(|n| n.text());
                        let value = match text.and_then(bool_value) {
                            Some(b) => b,
                            // A number or a word (Dagaz files use them) is kept as the piece's constant; as a
                            // predicate it is true.
                            None if text.is_some() => {
                                info.constants
                                    .push((id, text.unwrap_or_default().to_string()));
                                true
                            }
                            _ => {
                                self.err(
                                    v.map_or(a.span, |n| n.span),
                                    "an attribute needs a value: true, false or a number",
                                );
                                false
                            }
                        };
                        info.attributes.push((id, value));
                    }
                    Some("notation") => {
                        info.notation = a.args().first().and_then(|n| n.text()).map(str::to_string)
                    }
                    Some("value") => match a
                        .args()
                        .first()
                        .and_then(|n| n.text())
                        .and_then(|t| t.parse::<f64>().ok())
                    {
                        Some(v) => info.value = Some(v),
                        None => self.err(a.span, "`value` needs a number"),
                    },
                    Some("name" | "moves" | "drops" | "pre" | "post") => {}
                    Some(h) if missing::UI_PIECE_FORMS.contains(&h) => {}
                    Some(h) => self.missing_rule(MissingKind::PieceForm, h, "", a.span),
                    None => {
                        let what = a.text().unwrap_or("(list)");
                        self.missing_rule(MissingKind::PieceForm, what, "", a.span)
                    }
                }
            }
            pieces.push(info);
        }
        Declared {
            index: piece_index,
            attributes,
            attr_index,
            pieces,
        }
    }
}
