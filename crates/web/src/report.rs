//! A finished game's report on the board's page: `/api/boards/NAME/report` (the report as
//! JSON, its annotated PGN in it), `/api/boards/NAME/report.svg` (its chart),
//! `/api/boards/NAME/report.html` (the whole page to keep). Each as the viewer sees the board:
//! the public, late by the delay, has a game's report once it has seen the game end.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use super::access::Viewer;
use super::board::Overview;
use touchmove_core::output::pgn::PgnTags;
use touchmove_trainer::GameReport;
use touchmove_trainer::annotated::annotated_pgn;
use touchmove_trainer::chart::chart_svg;
use touchmove_trainer::html::report_html;

/// The report `viewer` sees of board `name`, with its tags; else why there is none (a `404`).
fn viewed(
    overview: &Overview,
    viewer: Viewer,
    name: &str,
) -> Result<(GameReport, PgnTags), String> {
    let Some(board) = overview.board(name) else {
        return Err(format!("no board is called {name}"));
    };
    board
        .report_for(viewer, overview.tablebases.as_deref())
        .ok_or_else(|| "no game has ended on this board yet".to_owned())
}

/// `/api/boards/NAME/report`: the report of the game whose result the viewer sees, with its
/// annotated PGN (`pgn`); `404` while there is none.
pub async fn report(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(name): Path<String>,
) -> Response {
    let (report, tags) = match viewed(&overview, viewer, &name) {
        Ok(viewed) => viewed,
        Err(why) => return not_found(&why),
    };
    let pgn = annotated_pgn(&report, &tags);
    let mut value = match serde_json::to_value(&report) {
        Ok(value) => value,
        Err(error) => return failed(&error.to_string()),
    };
    if let Some(object) = value.as_object_mut() {
        object.insert("pgn".to_owned(), pgn.into());
    }
    axum::Json(value).into_response()
}

/// `/api/boards/NAME/report.svg`: the chart of that game's evaluation and clocks.
pub async fn chart(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(name): Path<String>,
) -> Response {
    let (report, _) = match viewed(&overview, viewer, &name) {
        Ok(viewed) => viewed,
        Err(why) => return not_found(&why),
    };
    match chart_svg(&report) {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(error) => failed(&error.to_string()),
    }
}

/// `/api/boards/NAME/report.html`: the report as a page of its own (to keep or print).
pub async fn page(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(name): Path<String>,
) -> Response {
    let (report, tags) = match viewed(&overview, viewer, &name) {
        Ok(viewed) => viewed,
        Err(why) => return not_found(&why),
    };
    let svg = match chart_svg(&report) {
        Ok(svg) => svg,
        Err(error) => return failed(&error.to_string()),
    };
    let pgn = annotated_pgn(&report, &tags);
    let title = format!(
        "touchmove report · board {name} · game {}",
        report.facts.number
    );
    Html(report_html(
        &title,
        &[(&report, svg.as_str(), pgn.as_str())],
    ))
    .into_response()
}

fn not_found(text: &str) -> Response {
    (StatusCode::NOT_FOUND, text.to_owned()).into_response()
}

fn failed(text: &str) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, text.to_owned()).into_response()
}
