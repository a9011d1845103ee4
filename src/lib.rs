//! dagaz: an engine for abstract board games whose rules are written in ZRF, the rules language of Zillions of
//! Games, plus this project's extensions; its main job is a headless tournament runner.

pub mod compile;
pub mod lang;
pub mod tournament;
