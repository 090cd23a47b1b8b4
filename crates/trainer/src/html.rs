//! The report as one HTML page: the players and result, the chart, the per-move table, the
//! annotated PGN to save.

use crate::report::GameReport;

/// The page of `reports` (one section a game), each with its chart (SVG, drawn already) and
/// its annotated PGN.
pub fn report_html(title: &str, games: &[(&GameReport, &str, &str)]) -> String {
    let mut page = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for (report, svg, pgn) in games {
        page.push_str(&section(report, svg, pgn));
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// One game's section.
pub fn section(report: &GameReport, svg: &str, pgn: &str) -> String {
    let facts = &report.facts;
    let mut out = format!("<section class=\"game\">\n<h2>Game {}", facts.number);
    if let Some(result) = &facts.result {
        out.push_str(&format!(" · {}", escape(result)));
        if let Some(reason) = &facts.reason {
            out.push_str(&format!(" ({})", escape(reason)));
        }
    }
    out.push_str("</h2>\n");
    if let Some(opening) = report.opening {
        out.push_str(&format!(
            "<p class=\"opening\">{} · {}</p>\n",
            opening.eco,
            escape(opening.name)
        ));
    }
    if report.engine.is_some() {
        let side = |a: Option<f64>| a.map_or("-".to_owned(), |a| format!("{a:.1}"));
        out.push_str(&format!(
            "<p class=\"accuracy\">Accuracy: White {} · Black {} <span>({})</span></p>\n",
            side(report.white_accuracy),
            side(report.black_accuracy),
            escape(report.engine.as_deref().unwrap_or_default())
        ));
    }
    out.push_str(&format!("<div class=\"chart\">{svg}</div>\n"));
    out.push_str(&table(report));
    out.push_str(&format!(
        "<details><summary>Annotated PGN</summary><pre class=\"pgn\">{}</pre></details>\n</section>\n",
        escape(pgn)
    ));
    out
}

/// The per-move table.
fn table(report: &GameReport) -> String {
    let mut out = String::from("<table class=\"moves\">\n<thead><tr>");
    for head in crate::table::HEADS {
        out.push_str(&format!("<th>{}</th>", escape(head)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for index in 0..report.facts.moves.len() {
        let Some(cells) = crate::table::row(report, index) else {
            continue;
        };
        let judgement = report
            .review(index)
            .and_then(|r| r.judged.as_ref()?.judgement);
        let class = judgement.map_or("", |j| j.name());
        out.push_str(&format!("<tr class=\"{class}\">"));
        for cell in cells {
            out.push_str(&format!("<td>{}</td>", escape(&cell)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// Text made safe inside HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            ch => out.push(ch),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:1000px;margin:2rem auto;\
padding:0 1rem;color:#222}h1{font-size:1.6rem}h2{margin-top:2.5rem}.opening,.accuracy span{color:#666}\
.chart svg{max-width:100%;height:auto}table{border-collapse:collapse;width:100%;\
font-variant-numeric:tabular-nums}th,td{text-align:left;padding:.2rem .5rem;border-bottom:1px solid #eee}\
tr.inaccuracy td:nth-child(7){color:#b7791f}tr.mistake td:nth-child(7){color:#dd6b20}\
tr.blunder td{background:#fff5f5}tr.blunder td:nth-child(7){color:#c53030;font-weight:bold}\
pre.pgn{white-space:pre-wrap;background:#f7f7f7;padding:1rem}";
