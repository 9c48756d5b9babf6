// Browsers come from Debian's packages; the registry's Chrome download is unreachable here.
module.exports = { skipDownload: true };
