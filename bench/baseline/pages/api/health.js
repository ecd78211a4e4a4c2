export default function health(req, res) {
  res.status(200).json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
}
