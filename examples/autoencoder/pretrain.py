# Pretrain a convolutional autoencoder on unlabeled image crops.
# Exported from a notebook; run top to bottom with `python pretrain.py`.
from datetime import datetime
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

torch.manual_seed(1234)
device = "cuda" if torch.cuda.is_available() else "cpu"


class AutoEncoder(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, channels, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1),
            nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(2 * channels, channels, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(channels, 3, 4, stride=2, padding=1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.decoder(self.encoder(x))


transform = transforms.Compose([transforms.Resize((64, 64)), transforms.ToTensor()])
data = datasets.ImageFolder("data/crops", transform=transform)
loader = DataLoader(data, batch_size=128, shuffle=True, num_workers=8)

model = AutoEncoder().to(device)
previous_runs = sorted(Path("checkpoints").glob("*/encoder.pt"))
if previous_runs:
    # Warm-start from the most recent run.
    model.encoder.load_state_dict(torch.load(previous_runs[-1], map_location=device))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

for epoch in range(30):
    for images, _ in loader:
        images = images.to(device)
        reconstruction = model(images)
        loss = criterion(reconstruction, images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

out_dir = Path("checkpoints") / datetime.now().strftime("%Y%m%d-%H%M%S")
out_dir.mkdir(parents=True, exist_ok=True)
torch.save(model.encoder.state_dict(), out_dir / "encoder.pt")
