// What a site does with the result: hands the receipt to its server (here, shows it).
document.addEventListener('verify-success', (event) => {
  document.getElementById('receipt').textContent = event.detail.receipt;
});
