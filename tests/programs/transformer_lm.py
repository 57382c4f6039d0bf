# pytorch/examples word_language_model TransformerModel + PositionalEncoding
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


class SmallLM(nn.Module):
    """nn.TransformerEncoder as in the 'Language Modeling with nn.Transformer' tutorial."""
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.1):
        super().__init__()
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


torch.manual_seed(0)
ntokens = 20
data = torch.randint(0, ntokens, (60, 4))
model = TransformerModel(ntokens, 16, 2, 32, 2, 0.2)
print(sum(p.numel() for p in model.parameters()))
print(model.encoder.layers[0])
criterion = nn.NLLLoss()
for step in range(3):
    model.train()
    model.zero_grad()
    src, tgt = data[:10 + step], data[1:11 + step]
    output = model(src)
    loss = criterion(output.view(-1, ntokens), tgt.reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-0.5)
    print('step', step, 'loss %.4f' % loss.item())

torch.manual_seed(1)
lm = SmallLM(ntokens, 16, 4, 32, 2)
opt = torch.optim.SGD(lm.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.95)
mask = nn.Transformer.generate_square_subsequent_mask(8)
print(mask)
for step in range(3):
    lm.train()
    out = lm(data[:8], mask)
    loss = F.cross_entropy(out.view(-1, ntokens), data[1:9].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    scheduler.step()
    print(f'| step {step} | lr {scheduler.get_last_lr()[0]:02.2f} | loss {loss.item():5.2f} | ppl {math.exp(loss.item()):8.2f}')
lm.eval()
with torch.no_grad():
    print(lm(data[:5, :1], nn.Transformer.generate_square_subsequent_mask(5)).argmax(-1).flatten())
