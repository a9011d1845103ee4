//! The text forms every run file shares: a CSV line, and the calendar date of a time. The lowest layer of the
//! writers: `records_out` and `writers` both use it, and it uses nothing of the tournament.

/// One CSV line (quoted as needed, ending in a newline).
pub fn csv_line<S: AsRef<[u8]>>(fields: &[S]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(vec![]);
    // Writing to memory cannot fail.
    let _ = w.write_record(fields);
    w.into_inner().unwrap_or_default()
}

/// Year, month, day, hour, minute and second (UTC) of `secs` seconds since 1970: the one calendar conversion
/// the run files and the default run names share.
pub fn utc_fields(secs: i64) -> (i64, i64, i64, i64, i64, i64) {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date, counting in 400-year eras from 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem / 3600, rem / 60 % 60, rem % 60)
}
